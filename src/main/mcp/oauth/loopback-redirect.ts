import { createServer, type Server } from 'node:http';
import { loopbackRedirectUrl } from './oauth-provider.js';

const PAGE_DONE =
  '<!doctype html><meta charset="utf-8"><title>Signed in</title><p>Signed in. You can close this tab and go back to Manus.</p>';
const PAGE_REFUSED = '<!doctype html><meta charset="utf-8"><title>Sign-in failed</title><p>Sign-in did not complete: ';

export interface LoopbackRedirect {
  port: number;
  redirectUrl: string;
  /** the authorization code the browser brought (or brings) back with the expected state */
  code(signal: AbortSignal): Promise<string>;
  close(): Promise<void>;
}

/**
 * The redirect URI of a native app (RFC 8252 §7.3): `http://127.0.0.1:<port>/callback`, on the port the
 * client was registered with when it is free, else on any free port. Only a callback carrying `state` counts;
 * it may come as soon as the browser opens, so it is kept until asked for.
 */
export async function listenForRedirect(state: string, preferredPort?: number): Promise<LoopbackRedirect> {
  let settle: { resolve: (code: string) => void; reject: (error: Error) => void } | undefined;
  const arrived = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  // nobody may be waiting yet when a refusal comes: it is reported by `code`
  arrived.catch(() => undefined);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // a request without our state did not come from the authorization we started (RFC 6749 §10.12)
    if (req.method !== 'GET' || url.pathname !== '/callback' || url.searchParams.get('state') !== state || !settle) {
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' }).end(`${PAGE_REFUSED}unexpected request.</p>`);
      return;
    }
    const { resolve, reject } = settle;
    settle = undefined;
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error) reject(new Error(`the authorization server refused: ${error}${describe(url.searchParams)}`));
    else if (code) resolve(code);
    else reject(new Error('the authorization server sent no code'));
    res
      .writeHead(error || !code ? 400 : 200, { 'content-type': 'text/html; charset=utf-8' })
      .end(error ? `${PAGE_REFUSED}${escapeHtml(error)}.</p>` : PAGE_DONE);
  });
  const port = await listenOn(server, preferredPort).catch(() => listenOn(server, 0));
  return {
    port,
    redirectUrl: loopbackRedirectUrl(port),
    code: (signal) =>
      new Promise<string>((resolve, reject) => {
        const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('sign-in cancelled'));
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        arrived.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function listenOn(server: Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

function describe(query: URLSearchParams): string {
  const description = query.get('error_description');
  return description ? ` (${description})` : '';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
