import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CoreEventSchema, type CoreEvent } from '../../src/shared/events.js';
import { openStore } from '../../src/main/store/store.js';
import { runCli } from '../support/cli.js';
import { startServerCli, type ServerCli } from '../support/server-cli.js';
import { waitFor } from '../support/wait-for.js';

const SERVING_LINE = /serving on http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+)/;

let dataDir: string | undefined;
let server: ServerCli | undefined;
let socket: WebSocket | undefined;
afterEach(async () => {
  socket?.close();
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  socket = server = dataDir = undefined;
});

function openSocket(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const opened = new WebSocket(url);
    opened.once('open', () => resolve(opened));
    opened.once('error', reject);
  });
}

describe('manus serve and the CLI on the same data folder', () => {
  it('tells its clients of a session the CLI renamed while it runs', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'manus-serve-rename-'));
    const store = openStore(dataDir);
    const session = store.createSession({ title: 'Old title', mode: 'agent', model: 'gpt-4o', workspace: dataDir });
    store.close();
    server = await startServerCli(['serve', '--port', '0'], { MANUS_DATA_DIR: dataDir }, SERVING_LINE);
    const [, port, token] = SERVING_LINE.exec(server.stdout() + server.stderr())!;
    socket = await openSocket(`ws://127.0.0.1:${port}/events?token=${token}`);
    const received: CoreEvent[] = [];
    socket.on('message', (frame) => received.push(CoreEventSchema.parse(JSON.parse(String(frame)))));

    const renamed = await runCli(['sessions', 'rename', session.id, 'Renamed', 'from', 'the', 'CLI'], {
      MANUS_DATA_DIR: dataDir,
    });
    expect(renamed.code, renamed.stderr).toBe(0);
    const renameEvent = () =>
      received.find(
        (event) => event.type === 'session' && event.action === 'updated' && event.sessionId === session.id,
      );
    await waitFor(() => renameEvent() !== undefined, 10_000, 'the rename event from serve');
    expect(renameEvent()).toMatchObject({ session: { title: 'Renamed from the CLI' } });

    // what serve lists now has the new title too
    const listed = await fetch(`http://127.0.0.1:${port}/api/listSessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: '{}',
    });
    expect(JSON.stringify(await listed.json())).toContain('Renamed from the CLI');
  });
});
