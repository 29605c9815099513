import { useEffect } from 'react';

export interface ShortcutActions {
  newSession: () => void;
  search: () => void;
  settings: () => void;
}

/** App-wide keys: Ctrl/⌘+N new session, Ctrl/⌘+K search, Ctrl/⌘+, settings (Enter/Esc live in the composer and App). */
export function useShortcuts(actions: ShortcutActions): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      const key = event.key.toLowerCase();
      if (key === 'n' && !event.shiftKey) {
        event.preventDefault();
        actions.newSession();
      } else if (key === 'k') {
        event.preventDefault();
        actions.search();
      } else if (key === ',') {
        event.preventDefault();
        actions.settings();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [actions]);
}
