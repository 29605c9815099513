import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentProcess, isOwnerAlive, OwnerProcessSchema } from '../process/owner-process.js';

/** the data folder's subfolder holding each open session browser's private folder */
const BROWSER_FOLDER = 'browser';
/** in each private folder: the process using it, so that a folder left by a process that died can be removed */
const OWNER_FILE = 'owner.json';
/** in each private folder: where Playwright writes downloads and artifacts (only they: their bytes are measured) */
const ARTIFACTS_FOLDER = 'artifacts';

export interface BrowserPrivateFolder {
  /** Playwright's artifactsDir and downloadsPath */
  artifactsDir: string;
  remove(): Promise<void>;
}

/** Removes the private folders whose process is known to be gone (killed before it could remove them). */
async function sweepAbandoned(parent: string): Promise<void> {
  for (const name of await readdir(parent).catch(() => [])) {
    const folder = join(parent, name);
    const owner = await readFile(join(folder, OWNER_FILE), 'utf8')
      .then((text) => OwnerProcessSchema.parse(JSON.parse(text)))
      .catch(() => undefined);
    // a folder without its owner yet may be one another process is making now
    if (owner && isOwnerAlive(owner) === false) await rm(folder, { recursive: true, force: true });
  }
}

/**
 * The session browser's own folder (owner-only) for Playwright's downloads and artifacts: under the data folder, out
 * of the sandbox's reach and off the shared /tmp; without a data folder (tests), in the system's temporary folder.
 */
export async function makeBrowserPrivateFolder(dataDir: string | undefined): Promise<BrowserPrivateFolder> {
  const parent = dataDir ? join(dataDir, BROWSER_FOLDER) : tmpdir();
  await mkdir(parent, { recursive: true, mode: 0o700 });
  if (dataDir) await sweepAbandoned(parent);
  // mkdtemp makes it 0700
  const folder = await mkdtemp(join(parent, 'session-'));
  await writeFile(join(folder, OWNER_FILE), JSON.stringify(currentProcess()), { mode: 0o600 });
  const artifactsDir = join(folder, ARTIFACTS_FOLDER);
  await mkdir(artifactsDir, { mode: 0o700 });
  return { artifactsDir, remove: () => rm(folder, { recursive: true, force: true }) };
}
