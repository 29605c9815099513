/** The performance mark the app sets once its handlers are attached: the page answers clicks and keys from then on. */
export const APP_LIVE_MARK = 'manus:app-live';
