import { resolveDataDir } from '../../store/data-dir.js';
import { openStore, type Store } from '../../store/store.js';
import type { StoreDeps } from './command-deps.js';

/** The app's data folder and store, as the commands that only read and write settings (`manus mcp`) need them. */
export const cliStoreDeps: StoreDeps<Store> = { resolveDataDir, openStore };
