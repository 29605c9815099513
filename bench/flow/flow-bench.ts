/**
 * Planning-flow core overhead: a 20-step plan against the scripted fake model answering at once. The time of every
 * model call is measured from the client side (ask/askTool) and subtracted, so what is left per step is the flow's
 * own work: plan store writes, events (stored before subscribers see them), step prompts, agent creation with its
 * persisted memory, the terminate tool, plan revision handling.
 * Run: npx tsx --import ./scripts/raw-text/register.mjs bench/flow/flow-bench.ts
 */
import { createLlm } from '../../src/main/llm/client.js';
import type { Llm } from '../../src/main/llm/types.js';
import { startCoreHarness } from '../../tests/support/core-harness.js';
import { createPlan, planningScript } from '../../tests/flow/flow-script.js';

const STEPS = 20;
const RUNS = 5;
const TARGET_P50_MS = 5;

interface Interval {
  start: number;
  end: number;
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
}

/** The session's model, timed from the caller's side. */
function timed(llm: Llm, calls: Interval[]): Llm {
  const time =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const start = performance.now();
      try {
        return await fn(...args);
      } finally {
        calls.push({ start, end: performance.now() });
      }
    };
  return {
    model: llm.model,
    supportsVision: llm.supportsVision,
    ask: time(llm.ask.bind(llm)),
    askTool: time(llm.askTool.bind(llm)),
  };
}

function llmTimeWithin(calls: Interval[], window: Interval): number {
  return calls
    .filter((call) => call.start >= window.start && call.end <= window.end)
    .reduce((sum, call) => sum + (call.end - call.start), 0);
}

const calls: Interval[] = [];
const stepTexts = Array.from({ length: STEPS }, (_, index) => `Bench step ${index}`);
const harness = await startCoreHarness(planningScript({ plan: () => createPlan('Bench plan', stepTexts) }), {
  service: { llmFactory: (config) => timed(createLlm(config), calls) },
});

const overheads: number[] = [];
const windows: number[] = [];
const llmShares: number[] = [];
const flowTimes: number[] = [];
let eventsPerStep = 0;
for (let run = 0; run <= RUNS; run++) {
  calls.length = 0;
  const stepStarts: number[] = [];
  const unsubscribe = harness.service.subscribe((event) => {
    if (event.type === 'step' && event.action === 'started') stepStarts[event.stepIndex] = performance.now();
  });
  const started = performance.now();
  const { sessionId, done } = harness.service.start({ task: `Benchmark run ${run}`, mode: 'planning' });
  const result = await done;
  const flowEnd = performance.now();
  unsubscribe();
  if (result.status !== 'finished') throw new Error(`flow ended ${result.status}: ${result.result}`);
  if (run === 0) continue; // warm-up: JIT, prepared statements, connection
  flowTimes.push(flowEnd - started);
  // one step = from its start to the next step's start: the agent run, the plan writes and events, the revision
  for (let index = 0; index + 1 < STEPS; index++) {
    const window = { start: stepStarts[index], end: stepStarts[index + 1] };
    const llm = llmTimeWithin(calls, window);
    windows.push(window.end - window.start);
    llmShares.push(llm);
    overheads.push(window.end - window.start - llm);
  }
  eventsPerStep = harness.store.listEvents(sessionId).length / STEPS;
}
await harness.close();

const rows = [
  ['step window (wall)', windows],
  ['  of which model calls', llmShares],
  ['core overhead per step', overheads],
  ['whole 20-step flow (wall)', flowTimes],
] as const;
console.log(`planning flow, ${STEPS}-step plan, ${RUNS} runs after a warm-up; fake model answering at once`);
console.log(`events stored per step (incl. streamed deltas): ${eventsPerStep.toFixed(1)}`);
console.log('| measure | samples | p50 ms | p90 ms | p99 ms | max ms |');
console.log('|---|---|---|---|---|---|');
for (const [name, values] of rows) {
  const sorted = [...values].sort((a, b) => a - b);
  console.log(
    `| ${name} | ${sorted.length} | ${percentile(sorted, 0.5).toFixed(2)} | ${percentile(sorted, 0.9).toFixed(2)} | ${percentile(sorted, 0.99).toFixed(2)} | ${sorted.at(-1)!.toFixed(2)} |`,
  );
}
const p50 = percentile(
  [...overheads].sort((a, b) => a - b),
  0.5,
);
console.log(
  `core overhead per step p50 = ${p50.toFixed(2)} ms (target ≤ ${TARGET_P50_MS} ms): ${p50 <= TARGET_P50_MS ? 'OK' : 'OVER'}`,
);
