// The stand-in has Electron's own types: a test that uses it as Electron is checked against electron.d.ts.
export { app, BrowserWindow, Menu, MenuItem, dialog, shell, safeStorage, ipcMain, screen, session } from 'electron';

/** answers for the next dialog.showMessageBox calls (the index of the button clicked), in order */
export const messageBoxAnswers: number[];
/** the menus that popped up, newest last */
export const popups: unknown[][];
export function electronEvent<T extends object>(extra?: T): T & { defaultPrevented: boolean; preventDefault(): void };
