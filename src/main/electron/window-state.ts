import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { screen, type BrowserWindow, type Rectangle } from 'electron';
import { z } from 'zod';

const STATE_FILE = 'window-state.json';
const SAVE_DELAY_MS = 500;

const WindowStateSchema = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(480),
  height: z.number().int().min(360),
  maximized: z.boolean().default(false),
});
export type WindowState = z.infer<typeof WindowStateSchema>;

const DEFAULT_STATE: WindowState = { width: 1280, height: 840, maximized: false };

/** The remembered bounds, dropped when missing, corrupt or off every screen now attached. */
export function loadWindowState(dataDir: string): WindowState {
  try {
    const state = WindowStateSchema.parse(JSON.parse(readFileSync(join(dataDir, STATE_FILE), 'utf8')));
    if (state.x === undefined || state.y === undefined) return state;
    const bounds: Rectangle = { x: state.x, y: state.y, width: state.width, height: state.height };
    const visible = screen.getAllDisplays().some((display) => {
      const area = display.workArea;
      return (
        bounds.x < area.x + area.width &&
        bounds.x + bounds.width > area.x &&
        bounds.y < area.y + area.height &&
        bounds.y + bounds.height > area.y
      );
    });
    return visible ? state : { ...state, x: undefined, y: undefined };
  } catch {
    return DEFAULT_STATE;
  }
}

/** Saves size, position and maximised state as the user changes them (debounced) and on close. */
export function rememberWindowState(window: BrowserWindow, dataDir: string): void {
  let timer: NodeJS.Timeout | undefined;
  const save = () => {
    if (window.isDestroyed() || window.isMinimized()) return;
    const bounds = window.getNormalBounds();
    const state: WindowState = { ...bounds, maximized: window.isMaximized() };
    try {
      mkdirSync(dirname(join(dataDir, STATE_FILE)), { recursive: true });
      writeFileSync(join(dataDir, STATE_FILE), JSON.stringify(state));
    } catch {
      // losing the window position is harmless; the app keeps running
    }
  };
  const saveSoon = () => {
    clearTimeout(timer);
    timer = setTimeout(save, SAVE_DELAY_MS);
  };
  window.on('resize', saveSoon);
  window.on('move', saveSoon);
  window.on('maximize', saveSoon);
  window.on('unmaximize', saveSoon);
  window.on('close', () => {
    clearTimeout(timer);
    save();
  });
}
