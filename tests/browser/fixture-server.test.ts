import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { get } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { htmlPage, jsonReply, startFixtureServer } from '../support/fixture-server.js';

/** Status of a GET sent with the path exactly as written (fetch would resolve the dots away). */
function rawStatus(baseUrl: string, path: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port: new URL(baseUrl).port, path }, (response) => {
      response.resume();
      resolve(response.statusCode);
    }).on('error', reject);
  });
}

describe('fixture server', () => {
  it('answers routes, records requests and serves a folder without letting paths climb out', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'fixture-static-'));
    mkdirSync(join(folder, 'docs'));
    writeFileSync(join(folder, 'docs', 'index.html'), '<title>Docs</title>');
    writeFileSync(join(folder, 'data.json'), '{"a":1}');
    const server = await startFixtureServer(
      { '/page': htmlPage('<p>hi</p>', 'Page'), '/api': (request) => jsonReply({ echo: request.body }) },
      { staticDir: folder },
    );
    try {
      expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await (await fetch(server.url('/page'))).text()).toContain('<title>Page</title>');
      const api = await fetch(server.url('/api'), { method: 'POST', body: 'ping' });
      expect(await api.json()).toEqual({ echo: 'ping' });
      expect(server.requests.at(-1)).toMatchObject({ method: 'POST', body: 'ping' });
      const docs = await fetch(server.url('/docs/'));
      expect(await docs.text()).toBe('<title>Docs</title>');
      const json = await fetch(server.url('/data.json'));
      expect(json.headers.get('content-type')).toBe('application/json');
      expect(await rawStatus(server.baseUrl, '/docs/../../../../etc/hostname')).toBe(404);
      expect((await fetch(server.url('/missing'))).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
