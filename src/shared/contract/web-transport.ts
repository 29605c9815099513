/** Paths and names the web server and the renderer's web client share. */
export const API_PREFIX = '/api/';
export const EVENTS_PATH = '/events';
export const TOKEN_PARAM = 'token';
