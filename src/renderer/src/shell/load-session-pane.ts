/**
 * The open session's code (its timeline, Markdown, tool views): one chunk, requested by the window when a session
 * is first shown, or earlier by main.tsx when the page opens on a session or has nothing else to do.
 */
export const loadSessionPane = () => import('./SessionPane.js');
