/**
 * How fast a cancel lands: the time from abort to the settled call, for the model client (during a Retry-After
 * wait, a hung request, a streaming reply) and for a session waiting on the person. The tests check that a cancel
 * ends these waits (each would otherwise last longer than the test); the speed targets they once asserted are here.
 * Run: npx tsx bench/llm/cancel-latency.ts [--runs N]
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createLlm, type LlmClient } from '../../src/main/llm/client.js';
import { startCoreHarness } from '../../tests/support/core-harness.js';
import { sequence, startFakeLlm, type FakeLlm, type Script } from '../../tests/support/fake-llm/index.js';
import { waitFor } from '../../tests/support/wait-for.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' } } });
const RUNS = Number(values.runs);
const question = [{ role: 'user' as const, content: 'question?' }];

interface Row {
  name: string;
  samples: number[];
  /** the bound the test used to assert, in ms */
  yardstick: number;
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** Starts a call, waits until `ready`, aborts, and returns the ms until the call settled. */
async function cancelLatency(start: (signal: AbortSignal) => Promise<unknown>, ready: () => boolean): Promise<number> {
  const abort = new AbortController();
  const settled = start(abort.signal).then(
    () => performance.now(),
    () => performance.now(),
  );
  await waitFor(ready, 10_000, 'the call to be under way');
  const abortedAt = performance.now();
  abort.abort();
  return (await settled) - abortedAt;
}

/** what shows the call is where the cancel should land: sent, waiting to retry, or streaming */
type Stage = 'sent' | 'retry wait' | 'streaming';

async function clientRow(name: string, script: Script, stage: Stage): Promise<Row> {
  const server: FakeLlm = await startFakeLlm(script);
  const llm: LlmClient = createLlm({
    provider: 'compatible',
    model: 'fake-model',
    baseUrl: server.baseUrl,
    requestTimeoutMs: 60_000,
  });
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const reached = new Set<Stage>();
    const before = server.chatRequests.length;
    samples.push(
      await cancelLatency(
        (signal) =>
          llm.ask(question, {
            signal,
            onNotice: () => reached.add('retry wait'),
            onDelta: () => reached.add('streaming'),
          }),
        () => (stage === 'sent' ? server.chatRequests.length > before : reached.has(stage)),
      ),
    );
  }
  await server.close();
  return { name, samples, yardstick: 100 };
}

async function sessionRow(): Promise<Row> {
  const askForever = { toolCalls: [{ name: 'ask_human', arguments: JSON.stringify({ inquire: 'wait forever?' }) }] };
  const harness = await startCoreHarness(() => askForever);
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    let waiting = false;
    const off = harness.service.subscribe((event) => {
      if (event.type === 'ask' && event.status === 'waiting') waiting = true;
    });
    const { sessionId, done } = harness.service.start({ task: 'long task' });
    await waitFor(() => waiting, 10_000, 'the question to the person');
    off();
    const cancelledAt = performance.now();
    await harness.service.cancel(sessionId);
    await done;
    samples.push(performance.now() - cancelledAt);
  }
  await harness.close();
  return { name: 'session cancel while asking the person', samples, yardstick: 1000 };
}

const loadBefore = loadavg()[0] ?? 0;
const rows = [
  await clientRow(
    'client: cancel during a Retry-After wait',
    () => ({ fault: 'rate_limit', retryAfterSeconds: 30 }),
    'retry wait',
  ),
  await clientRow('client: cancel a hung request', () => ({ fault: 'hang' }), 'sent'),
  await clientRow(
    'client: cancel mid-stream',
    sequence(...Array.from({ length: RUNS }, () => ({ text: 'a b c d e f g h i j k l m n o p', chunkDelayMs: 200 }))),
    'streaming',
  ),
  await sessionRow(),
];
console.log(
  `${cpus().length} CPUs, load average ${loadBefore.toFixed(1)} before / ${(loadavg()[0] ?? 0).toFixed(1)} after`,
);
console.table(
  rows.map((row) => ({
    measure: row.name,
    runs: row.samples.length,
    'median ms': median(row.samples).toFixed(1),
    'max ms': Math.max(...row.samples).toFixed(1),
    'yardstick ms': row.yardstick,
    'median / yardstick': (median(row.samples) / row.yardstick).toFixed(2),
  })),
);
