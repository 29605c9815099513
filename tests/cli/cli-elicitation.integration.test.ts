import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/main/store/store.js';
import { openSecretBox } from '../../src/main/store/secret-store.js';
import { saveSettings } from '../../src/main/config/settings-store.js';
import { CLI_PATH, collect, runCli } from '../support/cli.js';
import { startFakeLlm, type FakeLlm, type Script } from '../support/fake-llm/index.js';
import { manusEnv } from '../mcp/support/reference-servers.js';
import { waitFor } from '../support/wait-for.js';

const ASKING_SERVER = join(import.meta.dirname, '..', 'mcp', 'fixtures', 'asking-server.ts');

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The model books a table through the asking server's form, then finishes. */
const bookingScript: Script = ({ index }) =>
  index === 0
    ? { text: 'Booking.', toolCalls: [{ name: 'mcp_asking_book_table', arguments: {} }] }
    : { text: 'Booked.', toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] };

async function dataDirWithAskingServer(): Promise<{ dataDir: string; llm: FakeLlm }> {
  const llm = await startFakeLlm(bookingScript);
  const dataDir = mkdtempSync(join(tmpdir(), 'manus-cli-elicit-'));
  const store = openStore(dataDir);
  saveSettings(store, openSecretBox(dataDir), {
    mcp: {
      servers: { asking: { type: 'stdio', command: process.execPath, args: ['--import', 'tsx', ASKING_SERVER] } },
    },
  });
  store.close();
  cleanups.push(
    () => llm.close(),
    () => rmSync(dataDir, { recursive: true, force: true }),
  );
  return { dataDir, llm };
}

function lastToolResult(llm: FakeLlm): string {
  const messages = llm.chatRequests.at(-1)?.body.messages ?? [];
  return String(messages.findLast((message: { role: string }) => message.role === 'tool')?.content ?? '');
}

describe('a server form in the terminal', () => {
  it('is filled at the prompt of an interactive `manus run` (a real pseudo-terminal)', async () => {
    const { dataDir, llm } = await dataDirWithAskingServer();
    const command = [process.execPath, CLI_PATH, 'run', '--sandbox', 'local', 'Book a table']
      .map((part) => `'${part}'`)
      .join(' ');
    // script(1) gives the CLI a terminal of its own: stdin is a TTY there, as for a person
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: join(import.meta.dirname, '..', '..'),
      env: manusEnv(dataDir, llm.baseUrl),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    child.stdout?.on('data', (chunk) => (screen += chunk));
    const finished = collect(child, 60_000);
    const answer = async (prompt: string, line: string) => {
      await waitFor(() => screen.includes(prompt), 30_000, `the prompt "${prompt}"`);
      child.stdin?.write(`${line}\r`);
    };
    await answer('Name [required]: ', 'Ada');
    await answer('Guests [integer, required, default 2]: ', '');
    await answer('Budget per person [number]: ', '42.5');
    await answer('Vegetarian [y/n, default no]: ', 'y');
    await answer('Time [one of: Six (18:00), Seven (19:00), default 19:00]: ', 'six');
    await answer('seating [one of: Inside (inside), Terrace (terrace)]: ', '');
    await answer('Send this? [a]ccept / [d]ecline / [c]ancel: ', 'a');
    child.stdin?.end();
    const result = await finished;
    expect(result.code, screen).toBe(0);
    expect(screen).toContain('? MCP server "asking" asks: Who is the table for?');
    expect(lastToolResult(llm)).toBe(
      `accept ${JSON.stringify({ name: 'Ada', guests: 2, budget: 42.5, vegetarian: true, time: '18:00' })}`,
    );
  });

  it('is declined, with a note, when `manus run` has no terminal to ask at', async () => {
    const { dataDir, llm } = await dataDirWithAskingServer();
    const result = await runCli(['run', '--sandbox', 'local', 'Book a table'], manusEnv(dataDir, llm.baseUrl), {
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'MCP server "asking" asked for input ("Who is the table for?"); declined because nobody can answer in this run.',
    );
    expect(lastToolResult(llm)).toBe('decline {}');
  });
});
