/** Every keyboard shortcut of the app, declared once: the one key listener dispatches them and the help lists them. */

export type ShortcutId =
  'newSession' | 'send' | 'newline' | 'stop' | 'search' | 'settings' | 'reviewPrevious' | 'reviewNext' | 'closeDialog';

/** One key combination. `mod` is Ctrl or ⌘ without Alt; a modifier left unset is not looked at. */
export interface KeyChord {
  key: string;
  mod?: true;
  shift?: boolean;
}

export interface Shortcut {
  id: ShortcutId;
  chords: readonly KeyChord[];
  /** app: the window's key listener dispatches it; composer: the message box handles it itself */
  scope: 'app' | 'composer';
  /** keys that edit text (the arrows) are left to a focused text field */
  outsideTextFields?: true;
  /** the browser still acts on the key too (the arrows scroll) */
  keepsDefault?: true;
}

/** The fields of a KeyboardEvent a shortcut looks at (a DOM event, or a plain object in tests). */
export type ShortcutKeyEvent = Pick<
  KeyboardEvent,
  'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'target' | 'preventDefault'
>;

/** In the order the help lists them; the label is the message `shortcuts.<id>`. */
export const SHORTCUTS: readonly Shortcut[] = [
  {
    id: 'newSession',
    scope: 'app',
    // browsers keep Ctrl+N for a new window: Ctrl+Shift+O works in the web page too
    chords: [
      { key: 'n', mod: true, shift: false },
      { key: 'o', mod: true, shift: true },
    ],
  },
  { id: 'send', scope: 'composer', chords: [{ key: 'Enter', shift: false }] },
  { id: 'newline', scope: 'composer', chords: [{ key: 'Enter', shift: true }] },
  // never Esc: Esc closes what is on top (a dialog, a menu, a preview), and a run is stopped only on purpose
  { id: 'stop', scope: 'app', chords: [{ key: '.', mod: true }] },
  { id: 'search', scope: 'app', chords: [{ key: 'k', mod: true }] },
  { id: 'settings', scope: 'app', chords: [{ key: ',', mod: true }] },
  { id: 'reviewPrevious', scope: 'app', outsideTextFields: true, keepsDefault: true, chords: [{ key: 'ArrowLeft' }] },
  { id: 'reviewNext', scope: 'app', outsideTextFields: true, keepsDefault: true, chords: [{ key: 'ArrowRight' }] },
  { id: 'closeDialog', scope: 'app', chords: [{ key: 'Escape' }] },
];

const KEY_NAMES: Record<string, string> = { Escape: 'Esc', ArrowLeft: '←', ArrowRight: '→' };

export function shortcut(id: ShortcutId): Shortcut {
  return SHORTCUTS.find((candidate) => candidate.id === id)!;
}

export function chordMatches(chord: KeyChord, event: ShortcutKeyEvent): boolean {
  // with Shift held a letter arrives upper-case
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (key !== chord.key) return false;
  if (chord.mod && (!(event.ctrlKey || event.metaKey) || event.altKey)) return false;
  return chord.shift === undefined || chord.shift === event.shiftKey;
}

export function shortcutMatches(id: ShortcutId, event: ShortcutKeyEvent): boolean {
  return shortcut(id).chords.some((chord) => chordMatches(chord, event));
}

/** The keys as the help and tooltips show them: "Ctrl/⌘ + N  ·  Ctrl/⌘ + Shift + O". */
export function keysText(id: ShortcutId): string {
  return shortcut(id)
    .chords.map((chord) =>
      [
        chord.mod ? 'Ctrl/⌘' : undefined,
        chord.shift ? 'Shift' : undefined,
        KEY_NAMES[chord.key] ?? (chord.key.length === 1 ? chord.key.toUpperCase() : chord.key),
      ]
        .filter(Boolean)
        .join(' + '),
    )
    .join('  ·  ');
}
