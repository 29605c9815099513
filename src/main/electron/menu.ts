import { Menu, app, shell, type BrowserWindow, type MenuItemConstructorOptions } from 'electron';
import { IPC_COMMAND_CHANNEL, type UiCommand } from '../../shared/contract/ui-commands.js';

const PROJECT_URL = 'https://github.com/FoundationAgents/OpenManus';

/** The application menu; items that act on the UI send a contract command to the focused window. */
export function installApplicationMenu(window: () => BrowserWindow | undefined): void {
  const send = (command: UiCommand) => () => window()?.webContents.send(IPC_COMMAND_CHANNEL, command);
  const isMac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'New Session', accelerator: 'CmdOrCtrl+N', click: send('newSession') },
        { label: 'Search Sessions', accelerator: 'CmdOrCtrl+K', click: send('search') },
        { label: 'Settings', accelerator: 'CmdOrCtrl+,', click: send('openSettings') },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'Session',
      submenu: [
        { label: 'Focus Composer', accelerator: 'CmdOrCtrl+L', click: send('focusComposer') },
        { label: 'Stop Run', accelerator: 'CmdOrCtrl+.', click: send('stop') },
        { label: 'Toggle Plan Panel', accelerator: 'CmdOrCtrl+Shift+P', click: send('togglePlan') },
      ],
    },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        { label: 'Project Page', click: () => void shell.openExternal(PROJECT_URL) },
        { label: `Version ${app.getVersion()}`, enabled: false },
      ],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
