// The test drives the stubbed Electron through IPC messages: emit an event Electron would, answer the next message
// box, call the app's IPC handler as its page would, quit.
import { BrowserWindow, app, electronEvent, ipcMain, messageBoxAnswers, popups, session } from './electron.mjs';
import { handleOf, record } from './record.mjs';

function windowNamed(name) {
  const window = BrowserWindow.getAllWindows().find((candidate) => handleOf(candidate, 'window') === name);
  if (!window) throw new Error(`no open window ${name}`);
  return window;
}

const commands = {
  emitApp: ({ event, args = [] }) => app.emit(event, electronEvent(), ...args),
  emitWindow: ({ window, event, withEvent = false, args = [] }) =>
    windowNamed(window).emit(event, ...(withEvent ? [electronEvent()] : []), ...args),
  emitWebContents: ({ window, event, args = [] }) =>
    windowNamed(window).webContents.emit(event, electronEvent(), ...args),
  answerMessageBox: ({ response }) => messageBoxAnswers.push(response),
  closeWindow: ({ window }) => windowNamed(window).close(),
  quit: () => app.quit(),
  /** the person asking to quit again before the first quit is done (a second Cmd+Q) */
  quitTwice: () => {
    app.quit();
    app.quit();
  },
  /** the headers the session gives a response (the app's onHeadersReceived listener) */
  responseHeaders: ({ url }) =>
    new Promise((answer) =>
      session.defaultSession.webRequest.headersListener({ url, responseHeaders: {} }, (response) => answer(response)),
    ),
  /** clicks the item labelled `label` of the last menu that popped up */
  clickPopupItem: ({ label }) => {
    const item = popups.at(-1)?.find((candidate) => candidate.label === label);
    if (!item) throw new Error(`no item ${label} in the last popup menu`);
    item.click();
  },
  invoke: async ({ channel, window, args }) => {
    const handler = ipcMain.handlers.get(channel);
    const frame = { url: windowNamed(window).webContents.getURL() };
    return handler({ senderFrame: frame, sender: windowNamed(window).webContents }, ...args);
  },
};

process.on('message', (message) => {
  const run = commands[message.command];
  Promise.resolve()
    .then(() => run(message))
    .then(
      (result) => record('stub.done', [message.id, result ?? null]),
      (error) => record('stub.failed', [message.id, String(error?.stack ?? error)]),
    );
});
