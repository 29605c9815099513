import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { en } from '../../src/renderer/src/i18n/en.js';
import { zh } from '../../src/renderer/src/i18n/zh.js';
import { ShortcutHelp } from '../../src/renderer/src/shortcuts/ShortcutHelp.js';
import { ShortcutDispatcher } from '../../src/renderer/src/shortcuts/dispatcher.js';
import {
  SHORTCUTS,
  keysText,
  shortcutMatches,
  type KeyChord,
  type ShortcutId,
  type ShortcutKeyEvent,
} from '../../src/renderer/src/shortcuts/shortcuts.js';

/** A key press as the window's listener receives it. */
function press(key: string, options: Partial<ShortcutKeyEvent> = {}): ShortcutKeyEvent {
  return {
    key,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    target: null,
    preventDefault: vi.fn(),
    ...options,
  };
}

function pressChord(chord: KeyChord): ShortcutKeyEvent {
  const key = chord.shift && chord.key.length === 1 ? chord.key.toUpperCase() : chord.key;
  return press(key, { ctrlKey: Boolean(chord.mod), shiftKey: Boolean(chord.shift) });
}

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

beforeAll(async () => {
  await i18next
    .use(initReactI18next)
    .init({ resources: { en: { translation: en } }, lng: 'en', showSupportNotice: false });
});

describe('keyboard shortcuts', () => {
  it('lists every registered shortcut in the help, with its label and keys', () => {
    const help = renderToStaticMarkup(createElement(ShortcutHelp));
    const rows = [...help.matchAll(/<tr data-shortcut="([^"]+)"><td>([^<]*)<\/td><td><kbd>([^<]*)<\/kbd>/g)];
    expect(rows.map(([, id]) => id)).toEqual(SHORTCUTS.map(({ id }) => id));
    for (const [, id, label, keys] of rows) {
      expect(label).toBe(en.shortcuts[id as keyof typeof en.shortcuts]);
      expect(zh.shortcuts[id as keyof typeof zh.shortcuts]).toBeTruthy();
      expect(keys).toBe(keysText(id as ShortcutId));
    }
    expect(keysText('newSession')).toBe('Ctrl/⌘ + N  ·  Ctrl/⌘ + Shift + O');
    expect(keysText('stop')).toBe('Ctrl/⌘ + .');
    expect(keysText('closeDialog')).toBe('Esc');
  });

  it('sends each key press of an app shortcut to the action bound to it, and takes the key from the browser unless it keeps its default', () => {
    for (const shortcut of SHORTCUTS.filter(({ scope }) => scope === 'app')) {
      for (const chord of shortcut.chords) {
        const dispatcher = new ShortcutDispatcher();
        const action = vi.fn();
        dispatcher.bind(shortcut.id, action);
        const event = pressChord(chord);
        expect(dispatcher.dispatch(event), `${shortcut.id} ${chord.key}`).toBe(true);
        expect(action).toHaveBeenCalledWith(event);
        expect(event.preventDefault).toHaveBeenCalledTimes(shortcut.keepsDefault ? 0 : 1);
      }
    }
  });

  it('leaves keys alone that no bound shortcut claims: wrong modifiers, Alt, unbound shortcuts', () => {
    const dispatcher = new ShortcutDispatcher();
    const newSession = vi.fn();
    const unbind = dispatcher.bind('newSession', newSession);
    expect(dispatcher.dispatch(press('n'))).toBe(false);
    expect(dispatcher.dispatch(press('n', { ctrlKey: true, altKey: true }))).toBe(false);
    expect(dispatcher.dispatch(press('O', { ctrlKey: true, shiftKey: false }))).toBe(false);
    expect(dispatcher.dispatch(press('k', { ctrlKey: true }))).toBe(false);
    expect(dispatcher.dispatch(press('N', { metaKey: true, shiftKey: true }))).toBe(false);
    expect(dispatcher.dispatch(press('n', { metaKey: true }))).toBe(true);
    unbind();
    expect(dispatcher.dispatch(press('n', { metaKey: true }))).toBe(false);
    expect(newSession).toHaveBeenCalledTimes(1);
  });

  it('asks the newest binding first: the topmost of a menu and a dialog takes Esc, and Esc never stops the run', () => {
    const dispatcher = new ShortcutDispatcher();
    const calls: string[] = [];
    dispatcher.bind('stop', () => void calls.push('stop'));
    dispatcher.bind('closeDialog', () => void calls.push('menu'));
    const closeDialog = dispatcher.bind('closeDialog', () => void calls.push('dialog'));
    dispatcher.dispatch(press('Escape'));
    closeDialog();
    dispatcher.dispatch(press('Escape'));
    expect(calls).toEqual(['dialog', 'menu']);

    const running = new ShortcutDispatcher();
    running.bind('stop', () => void calls.push('stop'));
    const escape = press('Escape');
    expect(running.dispatch(escape)).toBe(false);
    expect(escape.preventDefault).not.toHaveBeenCalled();
    expect(running.dispatch(press('.', { ctrlKey: true }))).toBe(true);
    expect(calls).toEqual(['dialog', 'menu', 'stop']);

    const idle = new ShortcutDispatcher();
    idle.bind('stop', () => false);
    const stop = press('.', { metaKey: true });
    expect(idle.dispatch(stop)).toBe(false);
    expect(stop.preventDefault).not.toHaveBeenCalled();
  });

  it('leaves the review arrows to a focused text field, and Enter to the message box', () => {
    const dispatcher = new ShortcutDispatcher();
    const next = vi.fn();
    dispatcher.bind('reviewNext', next);
    dispatcher.bind('send', vi.fn());
    expect(dispatcher.dispatch(press('ArrowRight', { target: { tagName: 'INPUT' } as unknown as EventTarget }))).toBe(
      false,
    );
    expect(dispatcher.dispatch(press('Enter'))).toBe(false);
    expect(dispatcher.dispatch(press('ArrowRight', { target: { tagName: 'BUTTON' } as unknown as EventTarget }))).toBe(
      true,
    );
    expect(next).toHaveBeenCalledTimes(1);
    expect(shortcutMatches('send', press('Enter'))).toBe(true);
    expect(shortcutMatches('send', press('Enter', { shiftKey: true }))).toBe(false);
    expect(shortcutMatches('newline', press('Enter', { shiftKey: true }))).toBe(true);
  });

  it('has one keydown listener in the renderer, the shortcut provider', () => {
    const listeners = sources('src/renderer/src').filter((path) =>
      /addEventListener\(\s*'keydown'/.test(readFileSync(path, 'utf8')),
    );
    expect(listeners).toEqual([join('src/renderer/src/shortcuts/use-shortcut.tsx')]);
  });
});
