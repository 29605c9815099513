import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TokenSchema, randomToken } from './request-guard.js';

const TOKEN_FILE = 'serve-token';
/** owner-only: whoever reads the token can drive the agent in this data folder */
const OWNER_ONLY = 0o600;

export function serveTokenPath(dataDir: string): string {
  return join(dataDir, TOKEN_FILE);
}

function keptToken(path: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const parsed = TokenSchema.safeParse(text.trim());
  if (!parsed.success) return undefined;
  // a file copied or restored with looser permissions is tightened before it is used
  chmodSync(path, OWNER_ONLY);
  return parsed.data;
}

/**
 * The access token `manus serve` keeps in its data folder: a restart serves with the same one, so a page that was
 * open reloads straight back in. `rotate` replaces it (pages opened with the old one must open the new URL).
 */
export function storedServeToken(dataDir: string, options: { rotate?: boolean } = {}): string {
  const path = serveTokenPath(dataDir);
  const kept = options.rotate ? undefined : keptToken(path);
  if (kept) return kept;
  const token = randomToken();
  mkdirSync(dataDir, { recursive: true });
  // written aside and renamed: a second server starting at the same moment reads a whole token or none
  const staged = `${path}.${process.pid}.tmp`;
  writeFileSync(staged, `${token}\n`, { mode: OWNER_ONLY });
  renameSync(staged, path);
  return token;
}
