import { useEffect } from 'react';

export interface ShortcutActions {
  newSession: () => void;
  search: () => void;
  settings: () => void;
}

/** App-wide keys: Ctrl/⌘+N (or Ctrl/⌘+Shift+O) new session, Ctrl/⌘+K search, Ctrl/⌘+, settings (Enter/Esc live in the composer and App). */
export function useShortcuts(actions: ShortcutActions): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      const key = event.key.toLowerCase();
      // browsers keep Ctrl+N for a new window: Ctrl+Shift+O works in the web page too
      if ((key === 'n' && !event.shiftKey) || (key === 'o' && event.shiftKey)) {
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
