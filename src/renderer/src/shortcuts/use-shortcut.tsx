import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { ShortcutDispatcher, type ShortcutAction } from './dispatcher.js';
import type { ShortcutId } from './shortcuts.js';

const DispatcherContext = createContext<ShortcutDispatcher | undefined>(undefined);

/** The app's one keydown listener: every shortcut below it is dispatched from here. */
export function ShortcutProvider({ children }: { children: ReactNode }) {
  const [dispatcher] = useState(() => new ShortcutDispatcher());
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => void dispatcher.dispatch(event);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [dispatcher]);
  return <DispatcherContext.Provider value={dispatcher}>{children}</DispatcherContext.Provider>;
}

/**
 * Binds a shortcut's action while the calling component is mounted and `action` is given (a menu binds its Esc only
 * while open). Pass a stable function, or it rebinds each render.
 */
export function useShortcut(id: ShortcutId, action: ShortcutAction | undefined): void {
  const dispatcher = useContext(DispatcherContext);
  if (!dispatcher) throw new Error(`useShortcut('${id}') needs a <ShortcutProvider> above it`);
  useEffect(() => (action ? dispatcher.bind(id, action) : undefined), [dispatcher, id, action]);
}
