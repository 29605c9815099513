/**
 * Event append benchmark: today's path (one committed transaction per event, through the bus as the session
 * service ran it when the issue was written) against group commit through today's EventBus, on a real SQLite file,
 * in the same run, for the event streams a session produces tick by tick. Rounds alternate so that load on the
 * machine hits both alike.
 * Run: npx tsx bench/store/event-append-bench.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CoreEvent, CoreEventInput } from '../../src/shared/events.js';
import { EventBus, STREAM_COMMIT_WINDOW_MS } from '../../src/main/session/event-bus.js';
import { StreamedRedaction } from '../../src/main/session/streamed-redaction.js';
import { SecretRedactor } from '../../src/main/store/redact.js';
import { openStore, type Store, type StoreOptions } from '../../src/main/store/store.js';
import { writerThreadStarted } from '../../tests/support/writer-thread.js';

const EVENTS_PER_ROUND = 50_000;
const ROUNDS = 3;
const TARGET_RATIO = 4;
const PROGRESS_LINES_PER_CHUNK = 4;

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

const DELTAS_PER_REPLY = 20;

/**
 * One think/act step as the core emits it, tick by tick: the state, a streamed reply (one delta per network
 * chunk, each chunk its own tick), the whole reply with its tool call, the tool's result, the usage.
 */
function agentStepTick(sessionId: string, tick: number): CoreEventInput[] {
  const ticksPerStep = DELTAS_PER_REPLY + 4;
  const step = Math.floor(tick / ticksPerStep);
  const phase = tick % ticksPerStep;
  const messageId = `reply-${step}`;
  const call = { callId: `call-${step}`, name: 'bash', args: { command: 'ls -la' } };
  const state = (name: 'thinking' | 'acting'): CoreEventInput => ({
    type: 'agent_state',
    sessionId,
    agent: 'manus',
    state: 'RUNNING',
    phase: name,
    step,
    maxSteps: 20,
  });
  if (phase === 0) return [state('thinking')];
  if (phase <= DELTAS_PER_REPLY) {
    return [{ type: 'message', sessionId, messageId, role: 'assistant', text: `token${phase} `, delta: true }];
  }
  if (phase === DELTAS_PER_REPLY + 1) {
    return [
      { type: 'message', sessionId, messageId, role: 'assistant', text: `Step ${step}: listing.`, delta: false },
      { type: 'tool', sessionId, ...call, status: 'calling' },
    ];
  }
  if (phase === DELTAS_PER_REPLY + 2) {
    const output = 'drwxr-xr-x 2 user user 4096 report.md\n'.repeat(20);
    return [{ type: 'tool', sessionId, ...call, status: 'done', output, durationMs: 12 }];
  }
  const usage = { promptTokens: 900 + step, completionTokens: 40, totalTokens: 940 + step };
  return [{ type: 'usage', sessionId, model: 'gpt-4o', request: usage, session: usage }, state('acting')];
}

/** A tool streaming its output: each chunk read from the process (one per tick) brings a few lines. */
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

/** Many steps emitted at once (a resumed plan replaying, a tool printing thousands of lines): one tick, many events. */
function burstOfSteps(sessionId: string, tick: number): CoreEventInput[] {
  const ticksPerStep = DELTAS_PER_REPLY + 4;
  return Array.from({ length: ticksPerStep }, (_, phase) =>
    agentStepTick(sessionId, tick * ticksPerStep + phase),
  ).flat();
}

type Burst = (sessionId: string, index: number) => CoreEventInput[];
type Events = (index: number) => CoreEventInput[];
type Append = (events: CoreEventInput[]) => void;

interface Measured {
  perSecond: number;
  /** not counting the time this process waited for a CPU held by another one */
  perSecondOwnTime: number;
}

async function withStore<T>(
  use: (store: Store, sessionId: string) => Promise<T>,
  options: StoreOptions = {},
): Promise<T> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manus-append-bench-'));
  const store = openStore(dataDir, options);
  // the thread starts once per process (a few tens of milliseconds): the measured stream starts after that
  if (options.writeEventsInBackground) await writerThreadStarted(store);
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
  // the last streamed pieces may still wait for the rest of their stream: the time counts until they are shown
  const giveUpAt = performance.now() + 1000;
  while (shown() < EVENTS_PER_ROUND && performance.now() < giveUpAt)
    await new Promise((resolve) => setTimeout(resolve, 1));
  if (shown() !== EVENTS_PER_ROUND) throw new Error(`only ${shown()} of ${EVENTS_PER_ROUND} events were shown`);
  const wallMs = performance.now() - start;
  const waitingMs = schedulerTimes().waitingForCpuMs - scheduledBefore.waitingForCpuMs;
  return {
    perSecond: (EVENTS_PER_ROUND / wallMs) * 1000,
    perSecondOwnTime: (EVENTS_PER_ROUND / Math.max(1, wallMs - waitingMs)) * 1000,
  };
}

/**
 * Today's path through the bus, as the session service ran it when the issue was written (event-bus.ts before
 * 16bf5d8): each event held back or let through by the streamed redaction, cleared of secrets (with today's
 * redactor, so the comparison is of the commits alone), appended in its own transaction, then shown.
 */
function perEventBus(burst: Burst): Promise<Measured> {
  return withStore((store, sessionId) => {
    const redactor = new SecretRedactor();
    const streamed = new StreamedRedaction(redactor);
    let shown = 0;
    const listeners = new Set<(event: CoreEvent) => void>([() => (shown += 1)]);
    const append: Append = (events) => {
      for (const input of events) {
        for (const event of streamed.events(input)) {
          const stored = store.appendEvent(redactor.deep({ ...event, ts: Date.now() }));
          for (const listener of listeners) listener(stored);
        }
      }
    };
    return measure(
      (index) => burst(sessionId, index),
      append,
      () => shown,
    );
  });
}

/**
 * Group commit through the bus as the session service uses it: redacted, queued, committed per tick (by the store's
 * event writer thread, as in the app and the CLI), then shown.
 */
function groupCommit(burst: Burst): Promise<Measured> {
  return withStore(
    (store, sessionId) => {
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
    },
    { writeEventsInBackground: true },
  );
}

async function compare(label: string, burst: Burst): Promise<void> {
  const before: Measured[] = [];
  const after: Measured[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    before.push(await perEventBus(burst));
    after.push(await groupCommit(burst));
  }
  const figure = (runs: Measured[], key: keyof Measured) => median(runs.map((run) => run[key]));
  for (const [key, note] of [
    ['perSecond', 'wall'],
    ['perSecondOwnTime', 'not counting time waiting for a CPU'],
  ] as const) {
    const ratio = figure(after, key) / figure(before, key);
    rows.push({
      figure: `${label}, ${note}`,
      value: `${figure(before, key).toFixed(0)} → ${figure(after, key).toFixed(0)} events/s (${ratio.toFixed(1)}×)`,
      target: `≥ ${TARGET_RATIO}×`,
      met: ratio >= TARGET_RATIO ? 'yes' : 'NO',
    });
  }
}

console.log(
  `Event append benchmark on ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}, node ${process.version}`,
);
console.log(
  `Each figure: one transaction per event (the bus as the session service ran it when the issue was written) →\n` +
    `group commit written by the store's event writer thread (the events of a tick in one transaction; while a stream\n` +
    `flows, events wait up to ${STREAM_COMMIT_WINDOW_MS} ms for the rest\n` +
    `of their stream), both with today's redaction; ${EVENTS_PER_ROUND / 1000}k events, median of ${ROUNDS} alternating rounds;\n` +
    `every event shown to a subscriber, each tick ended with setImmediate as a stream's chunks end.\n`,
);
await compare(
  `agent steps (a delta per tick, ${DELTAS_PER_REPLY + 6} events in ${DELTAS_PER_REPLY + 4} ticks)`,
  agentStepTick,
);
await compare(`tool output (${PROGRESS_LINES_PER_CHUNK} progress lines per chunk, a chunk per tick)`, progressChunk);
await compare(`a burst (${DELTAS_PER_REPLY + 4} ticks of agent steps in one tick)`, burstOfSteps);
console.table(rows);
