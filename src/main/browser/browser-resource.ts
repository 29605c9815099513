import { defineResource } from '../session/resources.js';
import { settingsOf } from '../config/session-settings.js';
import { leaseBrowser } from './browser-launcher.js';
import { BrowserSession } from './browser-session.js';

/** The session's browser context, created on the first browser action and closed with the session. */
export const browserSessionResource = defineResource<BrowserSession>({
  name: 'browser',
  async create(owner) {
    const settings = settingsOf(owner.resources).browser;
    const lease = await leaseBrowser(settings);
    try {
      const context = await lease.browser.newContext({
        viewport: settings.viewport,
        acceptDownloads: true,
        userAgent: settings.userAgent,
      });
      try {
        return await BrowserSession.open(context, settings, owner.workspace, lease.release);
      } catch (error) {
        await context.close().catch(() => undefined);
        throw error;
      }
    } catch (error) {
      await lease.release();
      throw error;
    }
  },
  dispose: (session) => session.close(),
});
