import { join } from 'node:path';
import { app } from 'electron';

/** the Chromium profile's folder inside the data folder (cache, local storage, spelling dictionaries) */
export const CHROMIUM_PROFILE_FOLDER = 'chromium-profile';

/**
 * The window's Chromium profile, in a folder of its own under the data folder (MANUS_DATA_DIR when set): apart from
 * manus.db and the keys, and moved with them. Set before 'ready', when Chromium opens it.
 */
export function keepChromiumProfileIn(dataDir: string): string {
  const profile = join(dataDir, CHROMIUM_PROFILE_FOLDER);
  app.setPath('userData', profile);
  app.setPath('sessionData', profile);
  return profile;
}
