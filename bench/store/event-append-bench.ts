/**
 * Event append benchmark: today's path (store.appendEvent, one committed transaction per event) against group
 * commit through the EventBus (the events of one tick in one transaction, shown to subscribers after it), on a
 * real SQLite file, in the same run. Rounds alternate between the two so that load on the machine hits both alike.
 * Run: npx tsx bench/store/event-append-bench.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CoreEventInput } from '../../src/shared/events.js';
import { EventBus } from '../../src/main/session/event-bus.js';
import { SecretRedactor } from '../../src/main/store/redact.js';
import { openStore, type Store } from '../../src/main/store/store.js';

const EVENTS_PER_ROUND = 50_000;
const ROUNDS = 3;
const TARGET_RATIO = 4;
const PROGRESS_LINES_PER_CHUNK = 16;
const STEP_EVENTS_PER_TICK = 26;

interface Row {
  figure: string;
  value: string;
  target: string;
  met: string;
}
const rows: Row[] = [];

/** Main-thread time on a CPU and time spent waiting for one (Linux schedstat, ns); zero elsewhere. */
function schedulerTimes(): { onCpuMs: number; waitingForCpuMs: number } {
  try {
    const [onCpu, waiting] = fs.readFileSync('/proc/self/schedstat', 'utf8').trim().split(' ').map(Number);
    return { onCpuMs: onCpu / 1e6, waitingForCpuMs: waiting / 1e6 };
  } catch {
    return { onCpuMs: 0, waitingForCpuMs: 0 };
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** One think/act step as the core emits it: state, a streamed reply, the whole reply, a tool call, usage. */
function agentStep(sessionId: string, step: number): CoreEventInput[] {
  const usage = { promptTokens: 900 + step, completionTokens: 40, totalTokens: 940 + step };
  const messageId = `reply-${step}`;
  const deltas: CoreEventInput[] = Array.from({ length: STEP_EVENTS_PER_TICK - 6 }, (_, index) => ({
    type: 'message',
    sessionId,
    messageId,
    role: 'assistant',
    text: `token${index} `,
    delta: true,
  }));
  const call = { callId: `call-${step}`, name: 'bash', args: { command: 'ls -la' } };
  return [
    { type: 'agent_state', sessionId, agent: 'manus', state: 'RUNNING', phase: 'thinking', step, maxSteps: 20 },
    ...deltas,
    { type: 'message', sessionId, messageId, role: 'assistant', text: `Step ${step}: listing.`, delta: false },
    { type: 'tool', sessionId, ...call, status: 'calling' },
    {
      type: 'tool',
      sessionId,
      ...call,
      status: 'done',
      output: 'drwxr-xr-x 2 user user 4096 report.md\n'.repeat(20),
      durationMs: 12,
    },
    { type: 'usage', sessionId, model: 'gpt-4o', request: usage, session: usage },
    { type: 'agent_state', sessionId, agent: 'manus', state: 'RUNNING', phase: 'acting', step, maxSteps: 20 },
  ];
}

/** A tool streaming its output: each chunk read from the process brings a few lines, one progress event each. */
function progressChunk(sessionId: string, chunk: number): CoreEventInput[] {
  return Array.from({ length: PROGRESS_LINES_PER_CHUNK }, (_, line) => ({
    type: 'tool',
    sessionId,
    callId: 'call-build',
    name: 'mcp_build',
    args: { target: 'all' },
    status: 'calling',
    progress: `[${chunk}:${line}] compiling src/module-${line}.ts\n`,
  }));
}

type Burst = (sessionId: string, index: number) => CoreEventInput[];
type Events = (index: number) => CoreEventInput[];
type Append = (events: CoreEventInput[]) => void;

interface Measured {
  perSecond: number;
  /** not counting the time this process waited for a CPU held by another one */
  perSecondOwnTime: number;
}

function withStore<T>(use: (store: Store, sessionId: string) => Promise<T>): Promise<T> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manus-append-bench-'));
  const store = openStore(dataDir);
  const sessionId = store.createSession({ title: 'bench', mode: 'agent', model: 'm', workspace: '/w' }).id;
  return use(store, sessionId).finally(() => {
    store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
}

/** Each burst arrives in its own tick (as chunks from a stream do); done once `shown` counted every event. */
async function measure(eventsAt: Events, append: Append, shown: () => number): Promise<Measured> {
  const scheduledBefore = schedulerTimes();
  const start = performance.now();
  let sent = 0;
  for (let index = 0; sent < EVENTS_PER_ROUND; index += 1) {
    const events = eventsAt(index).slice(0, EVENTS_PER_ROUND - sent);
    append(events);
    sent += events.length;
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (shown() !== EVENTS_PER_ROUND) throw new Error(`only ${shown()} of ${EVENTS_PER_ROUND} events were shown`);
  const wallMs = performance.now() - start;
  const waitingMs = schedulerTimes().waitingForCpuMs - scheduledBefore.waitingForCpuMs;
  return {
    perSecond: (EVENTS_PER_ROUND / wallMs) * 1000,
    perSecondOwnTime: (EVENTS_PER_ROUND / Math.max(1, wallMs - waitingMs)) * 1000,
  };
}

/** Today's path: every event its own transaction, shown as soon as appendEvent returns. */
function perEventTransaction(burst: Burst): Promise<Measured> {
  return withStore((store, sessionId) => {
    let shown = 0;
    const append: Append = (events) => {
      for (const event of events) {
        store.appendEvent({ ...event, ts: Date.now() });
        shown += 1;
      }
    };
    return measure(
      (index) => burst(sessionId, index),
      append,
      () => shown,
    );
  });
}

/** Group commit in the store alone (no redaction, no bus): what the transaction per tick itself buys. */
function storeGroupCommit(burst: Burst): Promise<Measured> {
  return withStore((store, sessionId) => {
    let shown = 0;
    const countShown = () => void (shown += 1);
    const append: Append = (events) => {
      for (const event of events) store.queueEvent({ ...event, ts: Date.now() }, countShown);
      store.commitQueued();
    };
    return measure(
      (index) => burst(sessionId, index),
      append,
      () => shown,
    );
  });
}

/** Group commit through the bus as the session service uses it: redacted, queued, committed per tick, then shown. */
function groupCommit(burst: Burst): Promise<Measured> {
  return withStore((store, sessionId) => {
    const bus = new EventBus(store, new SecretRedactor());
    let shown = 0;
    bus.subscribe(() => (shown += 1));
    const append: Append = (events) => {
      for (const event of events) bus.emit(event);
    };
    return measure(
      (index) => burst(sessionId, index),
      append,
      () => shown,
    );
  });
}

async function compare(label: string, burst: Burst): Promise<void> {
  const before: Measured[] = [];
  const inStore: Measured[] = [];
  const throughBus: Measured[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    before.push(await perEventTransaction(burst));
    inStore.push(await storeGroupCommit(burst));
    throughBus.push(await groupCommit(burst));
  }
  const figure = (runs: Measured[], key: keyof Measured) => median(runs.map((run) => run[key]));
  for (const [after, path] of [
    [throughBus, 'EventBus'],
    [inStore, 'store alone'],
  ] as const) {
    for (const [key, note] of [
      ['perSecond', 'wall'],
      ['perSecondOwnTime', 'not counting time waiting for a CPU'],
    ] as const) {
      const ratio = figure(after, key) / figure(before, key);
      rows.push({
        figure: `${label}, ${path}, ${note}`,
        value: `${figure(before, key).toFixed(0)} → ${figure(after, key).toFixed(0)} events/s (${ratio.toFixed(1)}×)`,
        target: `≥ ${TARGET_RATIO}×`,
        met: ratio >= TARGET_RATIO ? 'yes' : 'NO',
      });
    }
  }
}

console.log(
  `Event append benchmark on ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}, node ${process.version}`,
);
console.log(
  `Each figure: one transaction per event (store.appendEvent, today) → one transaction per tick, through the\n` +
    `EventBus (redaction included, as the session service runs it) or in the store alone (queueEvent, commitQueued);\n` +
    `${EVENTS_PER_ROUND / 1000}k events, median of ${ROUNDS} alternating rounds; every event shown to a subscriber.\n`,
);
await compare(`agent steps (${STEP_EVENTS_PER_TICK} events per tick)`, agentStep);
await compare(`tool output (${PROGRESS_LINES_PER_CHUNK} progress lines per chunk)`, progressChunk);
console.table(rows);
