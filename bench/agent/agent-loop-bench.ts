/**
 * Agent loop benchmark: the Manus agent through the real session service and SQLite store, with the scripted LLM
 * answering at once, runs 200 think/act steps of a trivial tool. Core overhead per step = step wall time minus the
 * time spent inside the LLM client (request, SSE parsing). It includes event and memory writes to SQLite.
 * Run: npx tsx --import ./scripts/raw-text/register.mjs bench/agent/agent-loop-bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { AppSettingsSchema } from '../../src/shared/settings/app-settings.js';
import { createLlm } from '../../src/main/llm/client.js';
import type { Llm } from '../../src/main/llm/types.js';
import { SessionService } from '../../src/main/session/session-service.js';
import { BUILTIN_AGENTS } from '../../src/main/agent/agent-catalog.js';
import { BUILTIN_MODES } from '../../src/main/flow/mode-catalog.js';
import { openStore } from '../../src/main/store/store.js';
import { defineTool, toolOutput, type AnyTool } from '../../src/main/tool/tool.js';
import { startFakeLlm } from '../../tests/support/fake-llm/index.js';

const STEPS = 200;
const WARMUP_STEPS = 10;
const TARGET_P50_MS = 2;
const TARGET_P99_MS = 10;

const noopTool = defineTool({
  name: 'noop',
  kind: 'generic',
  description: 'does nothing',
  parameters: z.object({ n: z.number().int() }),
  risk: 'read',
  execute: async ({ n }) => toolOutput(`ok ${n}`),
}) as AnyTool;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const llm = await startFakeLlm(({ index }) =>
    index < STEPS - 1
      ? { toolCalls: [{ name: 'noop', arguments: { n: index } }], usage: { prompt_tokens: 100, completion_tokens: 10 } }
      : { text: 'done', toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] },
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'manus-agent-bench-'));
  const store = openStore(dataDir);
  const settings = AppSettingsSchema.parse({
    llms: { fake: { model: 'fake', baseUrl: llm.baseUrl, apiKey: 'k' } },
    defaultLlm: 'fake',
    agent: { maxSteps: STEPS + 5 },
  });
  const llmMs: number[] = [];
  const timedLlm = (inner: Llm): Llm => ({
    get model() {
      return inner.model;
    },
    get supportsVision() {
      return inner.supportsVision;
    },
    ask: (messages, options) => inner.ask(messages, options),
    askTool: async (messages, options) => {
      const started = performance.now();
      try {
        return await inner.askTool(messages, options);
      } finally {
        llmMs.push(performance.now() - started);
      }
    },
  });
  const service = new SessionService({
    agents: BUILTIN_AGENTS,
    modes: BUILTIN_MODES,
    store,
    dataDir,
    settings: () => settings,
    llmFactory: (config) => timedLlm(createLlm(config)),
    extraTools: () => [noopTool],
  });
  const stepStarts: number[] = [];
  let events = 0;
  service.subscribe((event) => {
    events++;
    if (event.type === 'agent_state' && event.phase === 'thinking' && event.state === 'RUNNING')
      stepStarts.push(performance.now());
  });
  const started = performance.now();
  const result = await service.start({ task: 'run the loop', maxSteps: STEPS + 5 }).done;
  const totalMs = performance.now() - started;
  stepStarts.push(performance.now());
  if (result.status !== 'finished') throw new Error(`the run ended ${result.status}: ${result.result}`);

  // a step's thinking event is emitted once at run start too: pair each step window with its LLM call
  const windows = stepStarts.slice(-(llmMs.length + 1));
  const overhead: number[] = [];
  for (let i = WARMUP_STEPS; i < llmMs.length; i++) overhead.push(windows[i + 1] - windows[i] - llmMs[i]);
  const sorted = [...overhead].sort((a, b) => a - b);
  const llmSorted = [...llmMs].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  const p99 = percentile(sorted, 99);
  console.log(`Agent loop: ${llmMs.length} think/act steps, ${events} events stored, ${totalMs.toFixed(0)} ms in all`);
  console.table([
    {
      figure: 'core overhead per step p50',
      value: `${p50.toFixed(2)} ms`,
      target: `≤ ${TARGET_P50_MS} ms`,
      met: p50 <= TARGET_P50_MS ? 'yes' : 'NO',
    },
    {
      figure: 'core overhead per step p99',
      value: `${p99.toFixed(2)} ms`,
      target: `≤ ${TARGET_P99_MS} ms`,
      met: p99 <= TARGET_P99_MS ? 'yes' : 'NO',
    },
    {
      figure: 'LLM client time per step p50 (excluded)',
      value: `${percentile(llmSorted, 50).toFixed(2)} ms`,
      target: '',
      met: '',
    },
  ]);
  await service.close();
  store.close();
  await llm.close();
  rmSync(dataDir, { recursive: true, force: true });
}

await main();
