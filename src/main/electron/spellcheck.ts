import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Session } from 'electron';

/** where Chromium fetches Hunspell dictionaries from by default (Google's CDN) */
const CHROMIUM_DICTIONARY_URL = 'https://redirector.gvt1.com/edgedl/chrome/dict/';
/** a loopback port nothing answers on: a dictionary fetch fails at once and nothing leaves the machine */
const NO_DICTIONARY_URL = 'http://127.0.0.1:9/';
/** present in the Chromium profile once the person allowed the download */
const OPT_IN_FILE = 'spellcheck-downloads-allowed';

/**
 * Spellcheck without asking the network: macOS checks with the system's dictionaries; elsewhere Chromium would fetch
 * Hunspell dictionaries from Google, which waits until the person allows it (from the context menu), remembered in the
 * Chromium profile.
 */
export class SpellcheckDownloads {
  constructor(
    private readonly session: Session,
    private readonly profileDir: string,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  /** whether dictionaries are downloaded on this OS only after the person allows it */
  get needsConsent(): boolean {
    return this.platform !== 'darwin';
  }

  get allowed(): boolean {
    return !this.needsConsent || existsSync(join(this.profileDir, OPT_IN_FILE));
  }

  apply(): void {
    if (!this.needsConsent) return;
    this.session.setSpellCheckerDictionaryDownloadURL(this.allowed ? CHROMIUM_DICTIONARY_URL : NO_DICTIONARY_URL);
  }

  allow(): void {
    mkdirSync(this.profileDir, { recursive: true });
    writeFileSync(join(this.profileDir, OPT_IN_FILE), `${new Date().toISOString()}\n`);
    this.apply();
  }
}
