import { defineResource } from '../session/resources.js';
import { settingsOf } from '../config/session-settings.js';
import { sharedBrowser } from './browser-launcher.js';
import { BrowserSession } from './browser-session.js';

/** The session's browser context, created on the first browser action and closed with the session. */
export const browserSessionResource = defineResource<BrowserSession>({
  name: 'browser',
  async create(owner) {
    const settings = settingsOf(owner.resources).browser;
    const browser = await sharedBrowser(settings);
    const context = await browser.newContext({
      viewport: settings.viewport,
      acceptDownloads: true,
      userAgent: settings.userAgent,
    });
    try {
      return await BrowserSession.open(context, settings, owner.workspace);
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  },
  dispose: (session) => session.close(),
});
