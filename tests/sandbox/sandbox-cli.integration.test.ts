import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sandboxCommand } from '../../src/main/cli/commands/sandbox.js';
import { bashTool } from '../../src/main/tool/bash.js';
import type { TestToolContext } from '../support/tool-context.js';
import { call, closeSandbox, containerIdOf, sandboxContext } from './sandbox-test-kit.js';

/** Runs `manus sandbox ...` in process (as the lead's program mounts it) and returns what it printed. */
async function manusSandbox(args: string[]): Promise<string> {
  const program = new Command('manus').option('--data-dir <dir>').exitOverride().addCommand(sandboxCommand());
  const printed: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed.push(String(chunk));
    return true;
  });
  try {
    await program.parseAsync(['--data-dir', dataDir, 'sandbox', ...args], { from: 'user' });
  } finally {
    spy.mockRestore();
  }
  return printed.join('');
}

const dataDir = mkdtempSync(join(tmpdir(), 'manus-data-'));

describe('manus sandbox (CLI)', () => {
  let ctx: TestToolContext;

  beforeAll(async () => {
    ctx = sandboxContext();
    await call(bashTool, { command: 'true' }, ctx);
  });
  afterAll(async () => {
    await closeSandbox(ctx);
  });

  it('status says the engine answers, the image is there, and lists the running sandboxes', async () => {
    const text = await manusSandbox(['status']);
    expect(text).toMatch(/^Engine: {2}answering \(Docker \d+/m);
    expect(text).toMatch(/^Image: {3}manus-sandbox:latest present/m);
    expect(text).toContain(`session ${ctx.sessionId}`);
    const json = JSON.parse(await manusSandbox(['status', '--json'])) as {
      containers: { id: string; sessionId: string }[];
    };
    expect(json.containers).toContainEqual(
      expect.objectContaining({ sessionId: ctx.sessionId, id: containerIdOf(ctx)?.slice(0, 12) }),
    );
  });

  it('build --offline does nothing when the image already exists', async () => {
    const text = await manusSandbox(['build', '--offline']);
    expect(text).toContain('image manus-sandbox:latest already present');
    expect(text).toContain('Sandbox image manus-sandbox:latest is ready.');
  });
});
