/**
 * Store benchmark: appends, session listing and full-text search on a real SQLite file in a temp folder.
 * Run: npx tsx bench/store/store-bench.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CoreEventInput } from '../../src/shared/events.js';
import { openStore, type Store } from '../../src/main/store/store.js';

const APPEND_EVENTS = 100_000;
const APPEND_TARGET_PER_S = 50_000;
const LIST_SESSIONS = 10_000;
const LIST_PAGE = 50;
const LIST_TARGET_MS = 20;
const FTS_WORDS = 1_000_000;
const FTS_SESSIONS = 1_000;
const WORDS_PER_MESSAGE = 100;
const VOCABULARY_SIZE = 20_000;
const FTS_TARGET_MS = 50;
const QUERY_RUNS = 30;

interface Row {
  figure: string;
  value: string;
  target: string;
  met: string;
}
const rows: Row[] = [];

function report(figure: string, value: number, unit: string, target: number, higherIsBetter: boolean): void {
  const met = higherIsBetter ? value >= target : value <= target;
  const digits = unit === 'ms' ? 2 : 0;
  rows.push({
    figure,
    value: `${value.toFixed(digits)} ${unit}`,
    target: `${higherIsBetter ? '≥' : '≤'} ${target} ${unit}`,
    met: met ? 'yes' : 'NO',
  });
}

/** Main-thread time on a CPU and time spent waiting for one (Linux schedstat, ns); zero elsewhere. */
function schedulerTimes(): { onCpuMs: number; waitingForCpuMs: number } {
  try {
    const [onCpu, waiting] = fs.readFileSync('/proc/self/schedstat', 'utf8').trim().split(' ').map(Number);
    return { onCpuMs: onCpu / 1e6, waitingForCpuMs: waiting / 1e6 };
  } catch {
    return { onCpuMs: 0, waitingForCpuMs: 0 };
  }
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

interface Timing {
  p50: number;
  p99: number;
  /** mean main-thread CPU time per call: what the call costs when it does not have to wait for a CPU */
  cpuMs: number;
}

function timeRuns(runs: number, action: () => unknown): Timing {
  action(); // warm the statement and page cache once
  const times: number[] = [];
  const before = schedulerTimes();
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    action();
    times.push(performance.now() - start);
  }
  const cpuMs = (schedulerTimes().onCpuMs - before.onCpuMs) / runs;
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), cpuMs };
}

function reportLatency(figure: string, timing: Timing, targetMs: number): void {
  rows.push({
    figure,
    value: `p50 ${timing.p50.toFixed(2)}, p99 ${timing.p99.toFixed(2)} ms; CPU ${timing.cpuMs.toFixed(2)} ms`,
    target: `p99 ≤ ${targetMs} ms`,
    met: timing.p99 <= targetMs ? 'yes' : timing.cpuMs <= targetMs ? 'CPU only' : 'NO',
  });
}

function withStore<T>(use: (store: Store) => T): T {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manus-store-bench-'));
  const store = openStore(dataDir);
  try {
    return use(store);
  } finally {
    store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One think/act step as the core emits it: state, a streamed reply, the whole reply, a tool call, usage. */
function agentStepEvents(sessionId: string, step: number): CoreEventInput[] {
  const usage = { promptTokens: 900 + step, completionTokens: 40, totalTokens: 940 + step };
  const messageId = `reply-${step}`;
  const deltas: CoreEventInput[] = Array.from({ length: 20 }, (_, index) => ({
    type: 'message',
    sessionId,
    messageId,
    role: 'assistant',
    text: `token${index} `,
    delta: true,
  }));
  return [
    { type: 'agent_state', sessionId, agent: 'manus', state: 'RUNNING', phase: 'thinking', step, maxSteps: 20 },
    ...deltas,
    {
      type: 'message',
      sessionId,
      messageId,
      role: 'assistant',
      text: `Step ${step}: I will list the files.`,
      delta: false,
    },
    { type: 'tool', sessionId, callId: `call-${step}`, name: 'bash', args: { command: 'ls -la' }, status: 'calling' },
    {
      type: 'tool',
      sessionId,
      callId: `call-${step}`,
      name: 'bash',
      args: { command: 'ls -la' },
      status: 'done',
      output: 'drwxr-xr-x 2 user user 4096 report.md\n'.repeat(20),
      durationMs: 12,
    },
    { type: 'usage', sessionId, model: 'gpt-4o', request: usage, session: usage },
    { type: 'agent_state', sessionId, agent: 'manus', state: 'RUNNING', phase: 'acting', step, maxSteps: 20 },
  ];
}

function benchAppend(label: string, eventsFor: (sessionId: string, index: number) => CoreEventInput[]): void {
  withStore((store) => {
    const sessionId = store.createSession({ title: 'bench', mode: 'agent', model: 'm', workspace: '/w' }).id;
    const latencies = new Float64Array(APPEND_EVENTS);
    let appended = 0;
    const scheduledBefore = schedulerTimes();
    const start = performance.now();
    for (let batch = 0; appended < APPEND_EVENTS; batch += 1) {
      for (const event of eventsFor(sessionId, batch)) {
        if (appended === APPEND_EVENTS) break;
        const before = performance.now();
        store.appendEvent({ ...event, ts: Date.now() });
        latencies[appended] = performance.now() - before;
        appended += 1;
      }
    }
    const wallMs = performance.now() - start;
    const scheduledAfter = schedulerTimes();
    const onCpuMs = scheduledAfter.onCpuMs - scheduledBefore.onCpuMs;
    const waitingForCpuMs = scheduledAfter.waitingForCpuMs - scheduledBefore.waitingForCpuMs;
    const sorted = Array.from(latencies).sort((a, b) => a - b);
    report(
      `append ${APPEND_EVENTS / 1000}k events, ${label}`,
      (APPEND_EVENTS / wallMs) * 1000,
      'events/s',
      APPEND_TARGET_PER_S,
      true,
    );
    if (waitingForCpuMs > 0) {
      // on a shared machine the wall clock includes time other processes held the CPUs; disk waits stay counted
      report(
        '  same, not counting time this process waited for a CPU',
        (APPEND_EVENTS / (wallMs - waitingForCpuMs)) * 1000,
        'events/s',
        APPEND_TARGET_PER_S,
        true,
      );
      rows.push({
        figure: '  wall / on CPU / waiting for a CPU / waiting for disk',
        value: `${wallMs.toFixed(0)} / ${onCpuMs.toFixed(0)} / ${waitingForCpuMs.toFixed(0)} / ${Math.max(0, wallMs - onCpuMs - waitingForCpuMs).toFixed(0)} ms`,
        target: '',
        met: '',
      });
    }
    rows.push({
      figure: '  appendEvent latency',
      value: `p50 ${(percentile(sorted, 0.5) * 1000).toFixed(0)} µs, p99 ${(percentile(sorted, 0.99) * 1000).toFixed(0)} µs, max ${sorted[sorted.length - 1].toFixed(0)} ms`,
      target: '',
      met: '',
    });
  });
}

function benchList(): void {
  withStore((store) => {
    const statuses = ['finished', 'failed', 'interrupted', 'cancelled', 'idle'] as const;
    store.db.transaction(() => {
      for (let index = 0; index < LIST_SESSIONS; index += 1) {
        const session = store.createSession({
          title: `Session ${index}`,
          mode: 'agent',
          model: 'gpt-4o',
          workspace: `/w/${index}`,
        });
        store.updateSession(session.id, { status: statuses[index % statuses.length] });
      }
    })();
    const list = `list ${LIST_SESSIONS / 1000}k sessions`;
    reportLatency(
      `${list}: first page of ${LIST_PAGE}`,
      timeRuns(QUERY_RUNS, () => store.listSessions({ limit: LIST_PAGE })),
      LIST_TARGET_MS,
    );
    reportLatency(
      `${list}: page of ${LIST_PAGE} by status`,
      timeRuns(QUERY_RUNS, () => store.listSessions({ limit: LIST_PAGE, status: 'failed' })),
      LIST_TARGET_MS,
    );
    reportLatency(
      `${list}: all of them`,
      timeRuns(QUERY_RUNS, () => store.listSessions()),
      LIST_TARGET_MS,
    );
  });
}

/** Word ranks follow Zipf's law, as in natural text: a few words are everywhere, most are rare. */
function zipfVocabulary(): { words: string[]; pick: () => string } {
  const words = Array.from({ length: VOCABULARY_SIZE }, (_, rank) => `w${rank.toString(36)}x`);
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= VOCABULARY_SIZE; rank += 1) cumulative.push((total += 1 / rank));
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const pick = () => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle] < target) low = middle + 1;
      else high = middle;
    }
    return words[low];
  };
  return { words, pick };
}

function benchSearch(): void {
  withStore((store) => {
    const { words, pick } = zipfVocabulary();
    const sessionIds = Array.from(
      { length: FTS_SESSIONS },
      (_, index) => store.createSession({ title: `Research ${index}`, mode: 'agent', model: 'm', workspace: '/w' }).id,
    );
    const messages = FTS_WORDS / WORDS_PER_MESSAGE;
    const start = performance.now();
    for (let index = 0; index < messages; index += 1) {
      const text = Array.from({ length: WORDS_PER_MESSAGE }, pick).join(' ');
      const sessionId = sessionIds[index % FTS_SESSIONS];
      const message: CoreEventInput = {
        type: 'message',
        sessionId,
        messageId: `m${index}`,
        role: 'user',
        text,
        delta: false,
      };
      store.appendEvent({ ...message, ts: Date.now() });
    }
    const loadSeconds = (performance.now() - start) / 1000;
    rows.push({
      figure: `  (loaded ${FTS_WORDS / 1e6}M words in ${messages} messages, ${FTS_SESSIONS} sessions)`,
      value: `${loadSeconds.toFixed(1)} s`,
      target: '',
      met: '',
    });
    store.searchSessions('warm'); // indexes what is still queued, so queries below measure search only
    const queries: [string, string][] = [
      ['rare word', words[VOCABULARY_SIZE - 7]],
      ['mid-frequency word', words[200]],
      ['most common word (in ~every message)', words[0]],
      ['two words', `${words[3]} ${words[150]}`],
      ['prefix while typing', words[1500].slice(0, 3)],
      ['hostile input', `"${words[40]} -* NEAR(`],
    ];
    for (const [label, query] of queries) {
      const timing = timeRuns(QUERY_RUNS, () => store.searchSessions(query, 20));
      reportLatency(`FTS over ${FTS_WORDS / 1e6}M words: ${label}`, timing, FTS_TARGET_MS);
    }
  });
}

console.log(
  `Store benchmark on ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}, node ${process.version}`,
);
console.log(
  'Each appendEvent is its own committed transaction (WAL, synchronous=NORMAL): durable against a killed process when it returns.\n',
);
benchAppend('agent-step mix (1 whole message in 26 events)', agentStepEvents);
benchAppend('worst case: every event a whole, indexed message', (sessionId, index) => [
  {
    type: 'message',
    sessionId,
    messageId: `m${index}`,
    role: 'assistant',
    text: `Whole reply number ${index} with some words`,
    delta: false,
  },
]);
benchList();
benchSearch();
console.table(rows);
console.log(
  'CPU = main-thread time on a CPU (Linux schedstat). On a busy machine wall times include waiting for a CPU;\n' +
    '"CPU only" marks a target met by the work itself but not by the wall clock under the current load.',
);
