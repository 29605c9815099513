import type { CoreHandlers } from '../../shared/contract.js';
import { maskSecrets, restoreMaskedSecrets } from '../store/settings-secrets.js';
import type { SettingsAccess } from './settings-access.js';

export type SettingsHandlers = Pick<CoreHandlers, 'getSettings' | 'updateSettings'>;

/** The settings screen reads and saves the app's settings; secrets cross the boundary masked, both ways. */
export function createSettingsHandlers({ settings }: { settings: SettingsAccess }): SettingsHandlers {
  return {
    getSettings: () => maskSecrets(settings.read()),
    updateSettings: ({ settings: incoming }) => {
      // a key the form sends back still masked keeps its stored value
      settings.write(restoreMaskedSecrets(incoming, settings.read()));
      return maskSecrets(settings.read());
    },
  };
}
