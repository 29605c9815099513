/**
 * The sandbox drivers (resources/sandbox/drivers/*.py) run straight on the host's python3, as `python3 -u -c <source>`
 * the way the app starts them, and spoken to in their JSON-lines protocol: no Docker, no TypeScript client in between.
 */
import {
  closeSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BASH_SHELL_SOURCE,
  PYTHON_REPL_SOURCE,
  WORKSPACE_LISTER_SOURCE,
  WORKSPACE_USAGE_SOURCE,
} from '../../src/main/sandbox/drivers/sources.js';
import { startLocalChannel } from '../../src/main/sandbox/local-channel.js';
import type { ProcessChannel } from '../../src/main/sandbox/process-channel.js';
import { waitFor } from '../support/wait-for.js';

const PYTHON = process.env.MANUS_PYTHON ?? 'python3';
const MIB = 1024 * 1024;

interface RunningDriver {
  channel: ProcessChannel;
  /** every protocol line so far, parsed */
  messages: Record<string, unknown>[];
  send(message: unknown): void;
  /** the first message after `from` (an index into `messages`) that `match` accepts */
  next(match: (message: Record<string, unknown>) => boolean, from?: number): Promise<Record<string, unknown>>;
}

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function workspace(): string {
  const folder = mkdtempSync(join(tmpdir(), 'manus-driver-'));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

function startDriver(source: string, folder: string): RunningDriver {
  const channel = startLocalChannel({
    command: PYTHON,
    args: ['-u', '-c', source],
    cwd: folder,
    env: { MANUS_WORKSPACE: folder, PYTHONUNBUFFERED: '1', TERM: 'dumb' },
  });
  const messages: Record<string, unknown>[] = [];
  channel.onLine((line) => messages.push(JSON.parse(line) as Record<string, unknown>));
  let stderr = '';
  channel.onStderr((text) => (stderr += text));
  const running: RunningDriver = {
    channel,
    messages,
    send: (message) => channel.write(typeof message === 'string' ? message : JSON.stringify(message) + '\n'),
    next: async (match, from = 0) => {
      const found = (): Record<string, unknown> | undefined => messages.slice(from).find(match);
      await waitFor(() => found() !== undefined || channel.ended, 15_000, 'the driver to answer');
      const message = found();
      if (!message) throw new Error(`the driver ended without answering; stderr: ${stderr}`);
      return message;
    },
  };
  cleanups.push(async () => {
    const ready = messages.find((message) => message.ev === 'ready');
    await channel.kill(typeof ready?.pid === 'number' ? ready.pid : undefined);
  });
  return running;
}

/** what the driver printed for one request: its `out` events, joined */
function outputOf(driver: RunningDriver, id?: number): string {
  return driver.messages
    .filter((message) => message.ev === 'out' && (id === undefined || message.id === id))
    .map((message) => message.data)
    .join('');
}

describe('python_repl.py', () => {
  it('says ready, runs cells in one namespace with output framed per cell, reports errors and interrupts', async () => {
    const repl = startDriver(PYTHON_REPL_SOURCE, workspace());
    expect(await repl.next((message) => message.ev === 'ready')).toMatchObject({
      pid: expect.any(Number),
      python: expect.stringMatching(/^3\./),
    });

    repl.send({ op: 'exec', id: 1, code: 'x = 20\nprint("hi")\nx + 22' });
    expect(await repl.next((message) => message.ev === 'done' && message.id === 1)).toEqual({
      ev: 'done',
      id: 1,
      error: false,
      dropped: 0,
      tail: '',
      images: [],
    });
    expect(outputOf(repl, 1)).toBe('hi\n42\n');

    repl.send({ op: 'exec', id: 2, code: 'x / 0' });
    expect(await repl.next((message) => message.ev === 'done' && message.id === 2)).toMatchObject({ error: true });
    expect(outputOf(repl, 2)).toContain('ZeroDivisionError: division by zero');

    repl.send({ op: 'exec', id: 3, code: 'import time\nprint("looping", flush=True)\nwhile True: time.sleep(0.01)' });
    await waitFor(() => outputOf(repl, 3).includes('looping'), 15_000, 'the loop to start');
    repl.send({ op: 'interrupt' });
    expect(await repl.next((message) => message.ev === 'done' && message.id === 3)).toMatchObject({ error: true });
    expect(outputOf(repl, 3)).toContain('KeyboardInterrupt');

    repl.send({ op: 'exec', id: 4, code: 'x' });
    await repl.next((message) => message.ev === 'done' && message.id === 4);
    expect(outputOf(repl, 4)).toBe('20\n');
  });
});

describe('bash_shell.py', () => {
  it('says ready, frames each command with its exit code, feeds input and interrupts the foreground command', async () => {
    const folder = workspace();
    const shell = startDriver(BASH_SHELL_SOURCE, folder);
    expect(await shell.next((message) => message.ev === 'ready')).toMatchObject({ pid: expect.any(Number) });

    let from = shell.messages.length;
    shell.send({ op: 'run', id: 1, command: 'echo "hi from $PWD"; export KEPT=yes; (exit 3)' });
    expect(await shell.next((message) => message.ev === 'done', from)).toEqual({ ev: 'done', id: 1, code: 3 });
    expect(outputOf(shell)).toBe(`hi from ${folder}\n`);

    from = shell.messages.length;
    shell.send({ op: 'run', id: 2, command: 'read -r line; echo "got $line and $KEPT"' });
    shell.send({ op: 'input', data: 'abc\n' });
    expect(await shell.next((message) => message.ev === 'done', from)).toEqual({ ev: 'done', id: 2, code: 0 });
    expect(outputOf(shell)).toContain('got abc and yes\n');

    from = shell.messages.length;
    shell.send({ op: 'run', id: 3, command: 'echo sleeping; sleep 60' });
    await waitFor(() => outputOf(shell).includes('sleeping'), 15_000, 'the sleep to start');
    shell.send({ op: 'interrupt' });
    expect(await shell.next((message) => message.ev === 'done', from)).toEqual({ ev: 'done', id: 3, code: 130 });
  });
});

describe('workspace_lister.py', () => {
  it('answers each line with the listing of the workspace, links not followed, cut at the number asked for', async () => {
    const folder = workspace();
    mkdirSync(join(folder, 'data'));
    writeFileSync(join(folder, 'data', 'notes.txt'), 'hello');
    symlinkSync('/etc', join(folder, 'etc-link'));
    const lister = startDriver(WORKSPACE_LISTER_SOURCE, folder);

    lister.send('100\n');
    const full = await lister.next(() => true);
    expect(full.complete).toBe(true);
    const entries = full.entries as [string, number, number, number, string][];
    expect(entries.map(([kind, , , , path]) => [kind, path]).sort()).toEqual([
      ['d', 'data'],
      ['f', 'data/notes.txt'],
      ['l', 'etc-link'],
    ]);
    const file = entries.find(([, , , , path]) => path === 'data/notes.txt');
    expect(file?.[1]).toBe(5);
    expect(file?.[2]).toBeGreaterThan(0);

    lister.send('1\n');
    const cut = await lister.next(() => true, 1);
    expect(cut.complete).toBe(false);
    expect(cut.entries).toHaveLength(1);
  });
});

describe('workspace_usage.py', () => {
  it('counts blocks once per hard link, and the space of files deleted while still open', async () => {
    const folder = workspace();
    const meter = startDriver(WORKSPACE_USAGE_SOURCE, folder);
    const measure = async (request = ''): Promise<number> => {
      const from = meter.messages.length;
      meter.send(`${request}\n`);
      const answer = await meter.next(() => true, from);
      expect(answer).toEqual({ bytes: expect.any(Number) });
      return answer.bytes as number;
    };

    const empty = await measure();
    writeFileSync(join(folder, 'one-mib'), Buffer.alloc(MIB, 1));
    const withFile = await measure();
    expect(withFile - empty).toBeGreaterThanOrEqual(MIB);

    linkSync(join(folder, 'one-mib'), join(folder, 'same-file'));
    expect(await measure()).toBe(withFile);

    const held = join(folder, 'held-open');
    const fd = openSync(held, 'w');
    cleanups.push(() => closeSync(fd));
    writeSync(fd, Buffer.alloc(MIB, 2));
    unlinkSync(held);
    const withHeld = await measure();
    expect(withHeld - withFile).toBeGreaterThanOrEqual(MIB);
    // `open`: only what deleted files still hold (the host walks the rest of a bind-mounted workspace)
    const open = await measure('open');
    expect(open).toBeGreaterThanOrEqual(MIB);
    expect(open).toBeLessThan(withFile);

    // `apparent`: a sparse file at its size, what a copy writes on the host
    const sparse = join(folder, 'sparse');
    writeFileSync(sparse, '');
    truncateSync(sparse, 64 * MIB);
    expect((await measure()) - withHeld).toBeLessThan(MIB);
    expect((await measure('apparent')) - withHeld).toBeGreaterThanOrEqual(64 * MIB);
  });
});
