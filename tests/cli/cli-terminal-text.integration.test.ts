import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CoreEventSchema } from '../../src/shared/events.js';
import { sequence, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js';
import { CLI_PATH, cliEnv, collect, runCli } from '../support/cli.js';

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });

/** What a hostile page or model could make the agent say: retitle the window, clear the screen, fake a link... */
const HOSTILE =
  'Done\x1b]0;pwned\x07 \x1b[2Jcleared \x9b31mred\x1b[0m ' +
  '\x1b]8;;http://evil.example/\x1b\\click here\x1b]8;;\x1b\\ \x1b]2;title\x1b\\bell\x07 back\rover \x85next \x1bPdcs\x1b\\ end';
/** The same, printed by the agent's Python code: a tool output. */
const PYTHON =
  'print("from python \\x1b]0;tool-title\\x07 \\x1b[2J \\x9b1m \\x1b]8;;http://evil.example/\\x1b\\\\link\\x1b]8;;\\x1b\\\\ ok")';

/** Anything a terminal would act on: ESC, C1 controls (8-bit CSI/OSC/ST...), BEL, CR and the other C0 controls. */
const TERMINAL_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;

let llm: FakeLlm;
let dataDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(async () => {
  await llm.close();
});
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'manus-cli-'));
  env = cliEnv(dataDir, llm.baseUrl);
  llm.setScript(
    sequence(
      { text: HOSTILE, toolCalls: [call('python_execute', { code: PYTHON })] },
      { text: HOSTILE, toolCalls: [call('terminate', { status: 'success' })] },
    ),
  );
  return () => rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the CLI on a pseudo-terminal (util-linux `script`), as a person at a terminal would; returns what it showed. */
async function runOnTerminal(args: string[], extraEnv: Record<string, string>): Promise<string> {
  const quoted = [process.execPath, CLI_PATH, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  // a terminal as a person has it: Node reads CI=true (set by .ci/run) as a 2-colour log, whatever the terminal
  const { CI: _ci, ...outsideCi } = process.env;
  const child = spawn('script', ['-q', '-e', '-c', quoted, '/dev/null'], {
    env: { ...outsideCi, ...env, ...extraEnv, TERM: 'xterm-256color' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end();
  const result = await collect(child, 120_000);
  expect(result.code, result.stdout).toBe(0);
  return result.stdout;
}

describe('manus run prints model and tool text without terminal control sequences', { timeout: 180_000 }, () => {
  it('human output off a terminal: no escape sequence, no control character, no colour at all', async () => {
    const result = await runCli(['run', '--sandbox', 'local', 'Say it'], env);
    expect(result.code, result.stderr).toBe(0);
    for (const stream of [result.stdout, result.stderr]) expect(stream).not.toMatch(TERMINAL_CONTROL);
    expect(result.stdout).toContain('Done cleared red click here bell backover next  end');
    expect(result.stdout).toContain('from python    link ok');
    expect(result.stdout).not.toContain('pwned');
  });

  it('--json keeps the text exact: it is data, JSON-escaped', async () => {
    const result = await runCli(['run', '--json', '--sandbox', 'local', 'Say it'], env);
    expect(result.code, result.stderr).toBe(0);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => CoreEventSchema.parse(JSON.parse(line)));
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'finished', result: HOSTILE });
    const python = events.find(
      (event) => event.type === 'tool' && event.name === 'python_execute' && event.status === 'done',
    );
    expect(python?.type === 'tool' && python.output).toBe(
      'from python \x1b]0;tool-title\x07 \x1b[2J \x9b1m \x1b]8;;http://evil.example/\x1b\\link\x1b]8;;\x1b\\ ok',
    );
    // JSON escapes the C0 controls; nothing raw but newlines between events
    expect(result.stdout.trim()).not.toMatch(/[\u0000-\u0009\u000B-\u001F]/);
  });

  it('on a terminal: its own colours, never the hostile sequences; NO_COLOR or FORCE_COLOR=0 turn the colours off', async () => {
    const colored = await runOnTerminal(['run', '--sandbox', 'local', 'Say it'], {});
    expect(colored).toMatch(/\x1b\[36m⚙ python_execute/);
    for (const hostile of ['\x1b]0;', 'pwned', '\x1b[2J', '\x9b', '\x1b]8;', '\x1b]2;', '\x1bP', '\x07', '\x85']) {
      expect(colored).not.toContain(hostile);
    }
    const colorsOff: Record<string, string>[] = [{ NO_COLOR: '1' }, { FORCE_COLOR: '0' }];
    for (const off of colorsOff) {
      const plain = await runOnTerminal(['run', '--sandbox', 'local', 'Say it'], off);
      expect(plain).toContain('Done cleared red click here');
      expect(plain).not.toMatch(/\x1b\[\d+(;\d+)*m/);
      expect(plain).not.toContain('pwned');
    }
  });
});
