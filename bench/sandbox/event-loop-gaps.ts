/**
 * Does the app stay responsive while the sandbox runs something hostile? The largest gap between 20 ms ticks of the
 * Node event loop during a runaway Python loop, a runaway shell loop stopped with ctrl_c, a memory bomb and a fork
 * bomb; and the time to take a 300 KB Python cell. The tests check what these calls return; the speed targets they
 * once asserted are the yardsticks here.
 * Run: npx tsx bench/sandbox/event-loop-gaps.ts
 */
import { cpus, loadavg } from 'node:os';
import type { z } from 'zod';
import { removeSessionSandbox } from '../../src/main/sandbox/session-sandbox.js';
import { bashTool } from '../../src/main/tool/bash.js';
import { pythonExecuteTool } from '../../src/main/tool/python-execute.js';
import type { Tool, ToolResult } from '../../src/main/tool/tool.js';
import { createToolContext, type TestToolContext } from '../../tests/support/tool-context.js';

const TICK_MS = 20;

interface Row {
  name: string;
  ms: number;
  /** the bound the test used to assert, in ms */
  yardstick: number;
}

/** Watches the Node event loop: the largest gap between ticks shows whether the app stayed responsive. */
function watchEventLoop(): { stop: () => number } {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, TICK_MS);
  return {
    stop: () => {
      clearInterval(timer);
      return worst;
    },
  };
}

function call<P extends z.ZodType>(tool: Tool<P>, args: z.input<P>, ctx: TestToolContext): Promise<ToolResult> {
  return tool.execute(tool.parameters.parse(args), ctx);
}

function expectText(result: ToolResult, pattern: RegExp): void {
  const text = [result.output, result.error].filter(Boolean).join('\n');
  if (!pattern.test(text)) throw new Error(`unexpected result: ${JSON.stringify(result).slice(0, 500)}`);
}

async function worstGap(run: () => Promise<void>): Promise<number> {
  const loop = watchEventLoop();
  await run();
  return loop.stop();
}

const loadBefore = loadavg()[0] ?? 0;
const ctx = createToolContext();
expectText(await call(pythonExecuteTool, { code: 'print(1)' }, ctx), /^1/);
const rows: Row[] = [];

const cellStarted = performance.now();
expectText(await call(pythonExecuteTool, { code: `blob = "${'x'.repeat(300_000)}"\nlen(blob)` }, ctx), /^300000/);
rows.push({ name: 'python: a 300 KB cell, duration', ms: performance.now() - cellStarted, yardstick: 2000 });

rows.push({
  name: 'python: infinite loop to its 1.5 s timeout, worst gap',
  ms: await worstGap(async () =>
    expectText(
      await call(pythonExecuteTool, { code: 'while True:\n    pass', timeout: 1.5 }, ctx),
      /KeyboardInterrupt/,
    ),
  ),
  yardstick: 500,
});
rows.push({
  name: 'python: memory bomb, worst gap',
  ms: await worstGap(async () =>
    expectText(
      await call(
        pythonExecuteTool,
        { code: 'hog = []\nwhile True:\n    hog.append(bytearray(64 * 1024 * 1024))' },
        ctx,
      ),
      /more memory than the sandbox allows|MemoryError/,
    ),
  ),
  yardstick: 500,
});
rows.push({
  name: 'bash: runaway loop stopped by Ctrl-C, worst gap',
  ms: await worstGap(async () => {
    const spinning = await call(bashTool, { command: 'while :; do :; done', timeout: 1.5 }, ctx);
    // the loop is either stopped at its timeout or left running for the agent to stop
    if (spinning.output?.includes('still running')) {
      expectText(await call(bashTool, { ctrl_c: true }, ctx), /\[exit code 130\]/);
    } else expectText(spinning, /\[exit code 130\]/);
  }),
  yardstick: 500,
});
rows.push({
  name: 'bash: fork bomb against the pids limit, worst gap',
  ms: await worstGap(async () =>
    expectText(
      await call(bashTool, { command: 'bomb() { bomb | bomb & }; bomb; sleep 2; echo survived', timeout: 8 }, ctx),
      /Resource temporarily unavailable|retry/,
    ),
  ),
  yardstick: 1000,
});
await removeSessionSandbox(ctx.sessionId);

console.log(
  `${cpus().length} CPUs, load average ${loadBefore.toFixed(1)} before / ${(loadavg()[0] ?? 0).toFixed(1)} after`,
);
console.table(
  rows.map((row) => ({
    measure: row.name,
    ms: row.ms.toFixed(0),
    'yardstick ms': row.yardstick,
    'ms / yardstick': (row.ms / row.yardstick).toFixed(2),
  })),
);
