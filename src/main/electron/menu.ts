import { Menu, app, shell, type BrowserWindow, type MenuItemConstructorOptions } from 'electron';
import { IPC_COMMAND_CHANNEL, type UiCommand } from '../../shared/contract/ui-commands.js';
import { APP_NAME } from './app-identity.js';
import { MENU_LABELS, menuLanguageOf, type MenuLanguage } from './menu-labels.js';

const PROJECT_URL = 'https://github.com/FoundationAgents/OpenManus';

/** macOS's app menu, with the app's name on its items (app.name is the package's, "manus-desktop", in development) */
function macAppMenu(): MenuItemConstructorOptions {
  return {
    label: APP_NAME,
    submenu: [
      { role: 'about', label: `About ${APP_NAME}` },
      { type: 'separator' },
      { role: 'services' },
      { type: 'separator' },
      { role: 'hide', label: `Hide ${APP_NAME}` },
      { role: 'hideOthers' },
      { role: 'unhide' },
      { type: 'separator' },
      { role: 'quit', label: `Quit ${APP_NAME}` },
    ],
  };
}

/** The View menu; the developer tools only outside a packaged build (a person's copy has no use for them). */
function viewMenu(packaged: boolean): MenuItemConstructorOptions {
  return {
    role: 'viewMenu',
    submenu: [
      { role: 'reload' },
      { role: 'forceReload' },
      ...(packaged ? [] : [{ role: 'toggleDevTools' as const }]),
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
}

/** The application menu; items that act on the UI send a contract command to the focused window. */
export function installApplicationMenu(
  window: () => BrowserWindow | undefined,
  // the renderer names the language it shows (setUiLanguage); until then the system's
  language: MenuLanguage = menuLanguageOf(app.getPreferredSystemLanguages()),
): void {
  const label = MENU_LABELS[language];
  const send = (command: UiCommand) => () => window()?.webContents.send(IPC_COMMAND_CHANNEL, command);
  const isMac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [macAppMenu()] : []),
    {
      label: label.file,
      submenu: [
        { label: label.newSession, accelerator: 'CmdOrCtrl+N', click: send('newSession') },
        { label: label.search, accelerator: 'CmdOrCtrl+K', click: send('search') },
        { label: label.settings, accelerator: 'CmdOrCtrl+,', click: send('openSettings') },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: label.session,
      submenu: [
        { label: label.focusComposer, accelerator: 'CmdOrCtrl+L', click: send('focusComposer') },
        { label: label.stop, accelerator: 'CmdOrCtrl+.', click: send('stop') },
        { label: label.togglePlan, accelerator: 'CmdOrCtrl+Shift+P', click: send('togglePlan') },
      ],
    },
    viewMenu(app.isPackaged),
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        { label: label.projectPage, click: () => void shell.openExternal(PROJECT_URL) },
        { label: `${label.version} ${app.getVersion()}`, enabled: false },
      ],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
