/** The app's identity, shared by the main process and the packaging config (electron-builder.yml; a test keeps them equal). */

/** electron-builder's appId: Windows groups the taskbar and routes notifications by it (AppUserModelID) */
export const APP_ID = 'dev.manus.desktop';
/** the name the person sees in menus */
export const APP_NAME = 'Manus';
