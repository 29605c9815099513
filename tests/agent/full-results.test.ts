import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { executeToolCall } from '../../src/main/agent/tool-execution.js';
import { FULL_RESULTS_FOLDER, MAX_STORED_RESULT_CHARS } from '../../src/main/agent/result-bounds.js';
import { ToolCollection } from '../../src/main/tool/tool-collection.js';
import { allowAllTools } from '../../src/main/tool/tool-gate.js';
import { defineTool, toolOutput, type AnyTool } from '../../src/main/tool/tool.js';
import { createToolContext } from '../support/tool-context.js';

const LONG = `${'start '.repeat(10)}${'x'.repeat(MAX_STORED_RESULT_CHARS * 2)}${' the end'.repeat(10)}`;

const floodTool = defineTool({
  name: 'flood',
  kind: 'generic',
  description: 'returns a very long text',
  parameters: z.object({}),
  risk: 'read',
  execute: () => Promise.resolve(toolOutput(LONG)),
});

async function callFlood(settings: Parameters<typeof createToolContext>[0]['settings'], workspace?: string) {
  const ctx = createToolContext({ settings, ...(workspace ? { workspace } : {}) });
  const events: unknown[] = [];
  const outcome = await executeToolCall(
    { id: 'c1', name: 'flood', arguments: '{}' },
    {
      sessionId: ctx.sessionId,
      workspace: ctx.workspace,
      agent: 'test',
      tools: new ToolCollection([floodTool as AnyTool]),
      session: ctx.session,
      emit: (event) => void events.push(event),
      signal: ctx.abort.signal,
      gate: allowAllTools,
      maxObserve: 2000,
    },
  );
  const stored = events.at(-1) as { output: string };
  return { ctx, outcome, stored };
}

describe('a tool result too long to store whole', () => {
  it('is cut for the store and not kept anywhere unless the person asked for it', async () => {
    const { ctx, stored } = await callFlood({});
    expect(stored.output.length).toBeLessThanOrEqual(MAX_STORED_RESULT_CHARS);
    expect(existsSync(join(ctx.workspace, FULL_RESULTS_FOLDER))).toBe(false);
  });

  it('is kept whole in the workspace with agent.keepFullResults, and the note reaches the store and the model', async () => {
    const { ctx, outcome, stored } = await callFlood({ agent: { keepFullResults: true } });
    const [file] = readdirSync(join(ctx.workspace, FULL_RESULTS_FOLDER));
    expect(readFileSync(join(ctx.workspace, FULL_RESULTS_FOLDER, file!), 'utf8')).toBe(LONG);
    const note = `[the whole output is kept in ${FULL_RESULTS_FOLDER}/${file}]`;
    expect(stored.output.startsWith(note)).toBe(true);
    expect(stored.output.length).toBeLessThanOrEqual(MAX_STORED_RESULT_CHARS);
    expect(outcome.observation.startsWith(note)).toBe(true);
  });

  it('is not kept past the workspace quota, nor written through a link out of the workspace', async () => {
    const crowded = mkdtempSync(join(tmpdir(), 'manus-ws-'));
    writeFileSync(join(crowded, 'data.bin'), Buffer.alloc(1024 * 1024 - 1000));
    const full = await callFlood({ agent: { keepFullResults: true }, sandbox: { workspaceQuotaMb: 1 } }, crowded);
    expect(full.stored.output).toMatch(/^\[the whole output \(\d+ bytes\) was not kept: .* quota of 1 MB\]/);
    expect(existsSync(join(crowded, FULL_RESULTS_FOLDER))).toBe(false);

    const workspace = mkdtempSync(join(tmpdir(), 'manus-ws-'));
    const outside = mkdtempSync(join(tmpdir(), 'manus-outside-'));
    mkdirSync(join(workspace, '.manus'));
    symlinkSync(outside, join(workspace, '.manus/results'));
    const linked = await callFlood({ agent: { keepFullResults: true } }, workspace);
    expect(linked.stored.output).toMatch(/^\[the whole output could not be kept: /);
    expect(readdirSync(outside)).toEqual([]);
  });
});
