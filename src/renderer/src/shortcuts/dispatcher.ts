import { SHORTCUTS, chordMatches, type Shortcut, type ShortcutId, type ShortcutKeyEvent } from './shortcuts.js';

/** What a key does now; false when it does not apply (Esc with no run going), so the key goes on to the next. */
export type ShortcutAction = (event: ShortcutKeyEvent) => boolean | void;

interface Binding {
  id: ShortcutId;
  action: ShortcutAction;
}

function isTextField(target: EventTarget | null): boolean {
  const tag = (target as { tagName?: string } | null)?.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA';
}

/** Routes a key press to the action bound to its shortcut; components bind and unbind actions as they mount. */
export class ShortcutDispatcher {
  private bindings: Binding[] = [];

  constructor(private readonly shortcuts: readonly Shortcut[] = SHORTCUTS) {}

  bind(id: ShortcutId, action: ShortcutAction): () => void {
    const binding = { id, action };
    this.bindings.push(binding);
    return () => {
      this.bindings = this.bindings.filter((bound) => bound !== binding);
    };
  }

  /** The newest binding is asked first (an open dialog's Esc before the run's); true when an action took the key. */
  dispatch(event: ShortcutKeyEvent): boolean {
    const inTextField = isTextField(event.target);
    for (const binding of [...this.bindings].reverse()) {
      const shortcut = this.shortcuts.find((candidate) => candidate.id === binding.id);
      if (!shortcut || shortcut.scope !== 'app' || (shortcut.outsideTextFields && inTextField)) continue;
      if (!shortcut.chords.some((chord) => chordMatches(chord, event))) continue;
      if (binding.action(event) === false) continue;
      if (!shortcut.keepsDefault) event.preventDefault();
      return true;
    }
    return false;
  }
}
