import type { AppState } from '../state/app-store.js';
import type { SessionView } from '../state/session-view.js';
import type { PanelChoice } from '../components/SessionHeader.js';

/** The panel shown beside a session: the chosen one, or in auto the plan when there is one, else the browser. */
export function panelFor(choice: AppState['sidePanel'], view: SessionView | undefined): PanelChoice {
  if (choice !== 'auto') return choice;
  if (view?.plan) return 'plan';
  if (view?.screenshots.length) return 'browser';
  return 'none';
}
