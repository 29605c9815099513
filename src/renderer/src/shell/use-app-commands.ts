import { useCallback, useEffect, type Dispatch, type SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppStore } from '../state/app-store.js';
import { isRunning } from '../state/session-view.js';
import type { SettingsTab } from '../features/settings/settings-types.js';
import { useShortcut } from '../shortcuts/use-shortcut.js';

interface ShellControls {
  setSettingsTab: Dispatch<SetStateAction<SettingsTab | undefined>>;
  /** focus the sessions search box */
  focusSearch: () => void;
}

/** The desktop menu's commands that the shell acts on (the store runs the rest), and its language. */
export function useMenuCommands(store: AppStore, { setSettingsTab, focusSearch }: ShellControls): void {
  const { i18n } = useTranslation();
  useEffect(
    () =>
      store.client.onCommand((command) => {
        if (command === 'openSettings') setSettingsTab((tab) => tab ?? 'providers');
        if (command === 'search') focusSearch();
        if (command === 'newSession') setSettingsTab(undefined);
      }),
    [store, setSettingsTab, focusSearch],
  );

  // the desktop app's menu follows the language the UI shows
  useEffect(() => {
    store.client.call('setUiLanguage', { language: i18n.language === 'zh' ? 'zh' : 'en' }).catch(() => undefined);
  }, [store, i18n.language]);
}

/** The shell's keyboard shortcuts: new session, search, settings, stop. */
export function useAppShortcuts(store: AppStore, { setSettingsTab, focusSearch }: ShellControls): void {
  useShortcut(
    'newSession',
    useCallback(() => {
      setSettingsTab(undefined);
      store.newSession();
    }, [store, setSettingsTab]),
  );
  useShortcut(
    'search',
    useCallback(() => {
      setSettingsTab(undefined);
      focusSearch();
    }, [setSettingsTab, focusSearch]),
  );
  useShortcut(
    'settings',
    useCallback(() => setSettingsTab((tab) => (tab ? undefined : 'providers')), [setSettingsTab]),
  );
  // the open session's run stops only on its own chord (Ctrl/⌘+.), never on the Esc that closes a dialog
  useShortcut(
    'stop',
    useCallback(() => {
      const { activeId, views } = store.getState();
      if (!(activeId && isRunning(views[activeId]))) return false;
      void store.stop();
    }, [store]),
  );
}
