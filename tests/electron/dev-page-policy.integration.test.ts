import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type InlineConfig, type ViteDevServer } from 'vite';
import configFor from '../../electron.vite.config.js';
import { DEV_CSP_NONCE_ENV, META_POLICY_TAG } from '../../src/main/server/csp.js';

/** The page `npm run dev` serves: the renderer part of electron.vite.config.ts, run by Vite's own dev server. */
let server: ViteDevServer | undefined;
afterAll(() => server?.close());

describe('npm run dev serves a page its own policy lets run', () => {
  it("puts the run's nonce in the page's policy and on every inline script and style the page is served with", async () => {
    const config = (configFor as (env: { command: 'serve'; mode: string }) => { renderer: InlineConfig })({
      command: 'serve',
      mode: 'development',
    });
    const nonce = process.env[DEV_CSP_NONCE_ENV];
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{24}$/);
    server = await createServer({
      ...config.renderer,
      configFile: false,
      logLevel: 'silent',
      server: { host: '127.0.0.1', port: 0, strictPort: false },
    });
    await server.listen();
    const page = await (await fetch(`${server.resolvedUrls!.local[0]}`)).text();
    const policy = META_POLICY_TAG.exec(page)?.[2] ?? '';
    expect(policy).toContain(`script-src 'self' 'nonce-${nonce}'`);
    expect(policy).toContain(`style-src 'self' 'nonce-${nonce}'`);
    expect(policy).not.toContain('unsafe-inline');
    // the React plugin's preamble is inline: it runs only with the nonce
    const inlineScripts = [...page.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((match) => match[1]);
    expect(inlineScripts.length).toBeGreaterThan(0);
    for (const attributes of inlineScripts) expect(attributes).toContain(`nonce="${nonce}"`);
    // Vite's client reads the nonce from here for the styles it injects
    expect(page).toContain(`<meta property="csp-nonce" nonce="${nonce}"`);
  });
});
