import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { ServerResponse } from 'node:http';
import { pagePolicy } from './csp.js';

const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

const IMMUTABLE_ASSETS = '/assets/';

/** The file under `root` a URL path names, or undefined when it escapes the root. */
export function resolveStaticPath(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const candidate = normalize(join(root, decoded));
  const rootWithSep = root.endsWith(sep) ? root : root + sep;
  return candidate === root || candidate.startsWith(rootWithSep) ? candidate : undefined;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** Serves the built renderer; unknown paths without an extension fall back to index.html (one-page app). */
export async function serveStatic(root: string, urlPath: string, response: ServerResponse): Promise<void> {
  const requested = urlPath === '/' ? '/index.html' : urlPath;
  let path = resolveStaticPath(root, requested);
  if (!path) {
    response.writeHead(400).end('Bad path');
    return;
  }
  if (!(await isFile(path))) {
    if (extname(requested) !== '') {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
      return;
    }
    path = join(root, 'index.html');
    if (!(await isFile(path))) {
      response
        .writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' })
        .end('The Manus UI is not built yet. Run `npm run build` (or `npm run web`) and reload.');
      return;
    }
  }
  const headers = {
    'Content-Type': MIME_TYPES[extname(path)] ?? 'application/octet-stream',
    'Cache-Control': requested.startsWith(IMMUTABLE_ASSETS) ? 'public, max-age=31536000, immutable' : 'no-cache',
  };
  if (extname(path) === '.html') {
    // a page's policy comes with the page: its meta tag's, when that only adds the hashes of its inline parts
    const page = await readFile(path, 'utf8');
    response.writeHead(200, { ...headers, 'Content-Security-Policy': pagePolicy(page) }).end(page);
    return;
  }
  response.writeHead(200, headers);
  createReadStream(path).pipe(response);
}
