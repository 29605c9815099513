import { renderToString } from 'react-dom/server';
import type { ManusClient } from '../client/manus-client.js';
import { initI18nFor, type UiLanguage } from '../i18n/i18n.js';
import { AppStore } from '../state/app-store.js';
import { AppRoot } from './AppRoot.js';

/**
 * The client the prerender's store holds: rendering the first screen must not ask the core anything (its requests
 * start in effects, which a prerender never runs), so any call is a build error naming what was asked.
 */
const noCore: ManusClient = {
  transport: 'web',
  call: (name) => {
    throw new Error(`the first screen is prerendered at build time, with no core: it must not call ${name}`);
  },
  onEvent: () => () => undefined,
  onCommand: () => () => undefined,
  onConnection: () => () => undefined,
};

/**
 * Run at build time (Node, by the renderer build's prerender plugin): the app's first screen in `language`, as the
 * page renders it before it has any data (no sessions, no settings yet). The page hydrates this markup.
 */
export function firstScreenHtml(language: UiLanguage): string {
  initI18nFor(language);
  return renderToString(<AppRoot store={new AppStore(noCore)} />);
}
