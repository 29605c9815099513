/**
 * First tool call benchmark: new sessions in the real session service with real Docker, the scripted LLM answering
 * after MODEL_LATENCY_MS, each session making PYTHON_CALLS python_execute calls. A call's time is measured from the
 * moment the model's tool-call reply was in the client's hands (askTool returned) to the moment the tool result went
 * back to the model (the next askTool began): tool run plus core overhead, nothing of the model's own time. The first
 * call of a session is compared with the later (warm) calls of the same sessions, with the session parts' warm-up
 * off (what every session paid before) and on, in the same run.
 * Run: npx tsx --import ./scripts/raw-text/register.mjs bench/sandbox/first-call-bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppSettingsSchema } from '../../src/shared/settings/app-settings.js';
import { BUILTIN_AGENTS } from '../../src/main/agent/agent-catalog.js';
import { BUILTIN_MODES } from '../../src/main/flow/mode-catalog.js';
import { createLlm } from '../../src/main/llm/client.js';
import type { Llm } from '../../src/main/llm/types.js';
import { removeSessionSandbox } from '../../src/main/sandbox/session-sandbox.js';
import { SessionService } from '../../src/main/session/session-service.js';
import { openStore } from '../../src/main/store/store.js';
import { startFakeLlm, type ScriptRequest } from '../../tests/support/fake-llm/index.js';

const MODEL_LATENCY_MS = 1500;
const SESSIONS = 5;
const PYTHON_CALLS = 5;
const TARGET_RATIO = 3;

/** Each answer runs one more cell until PYTHON_CALLS results came back, then finishes. */
function script(request: ScriptRequest) {
  const results = (request.body.messages as { role: string }[]).filter((message) => message.role === 'tool').length;
  if (results < PYTHON_CALLS) {
    return {
      delayMs: MODEL_LATENCY_MS,
      toolCalls: [{ name: 'python_execute', arguments: { code: `print(${results})` } }],
    };
  }
  return {
    delayMs: MODEL_LATENCY_MS,
    text: 'done',
    toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }],
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The gaps between a reply's arrival and the next request, per model call of the run. */
function timedLlm(inner: Llm, gaps: number[]): Llm {
  let replied: number | undefined;
  return {
    get model() {
      return inner.model;
    },
    get supportsVision() {
      return inner.supportsVision;
    },
    ask: (messages, options) => inner.ask(messages, options),
    askTool: async (messages, options) => {
      if (replied !== undefined) gaps.push(performance.now() - replied);
      try {
        return await inner.askTool(messages, options);
      } finally {
        replied = performance.now();
      }
    },
  };
}

interface Figures {
  first: number;
  warm: number;
}

async function measure(warmUpParts: boolean, baseUrl: string): Promise<Figures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'manus-first-call-bench-'));
  const store = openStore(dataDir);
  const settings = AppSettingsSchema.parse({
    llms: { fake: { model: 'fake', baseUrl, apiKey: 'k' } },
    defaultLlm: 'fake',
  });
  const sessionGaps: number[][] = [];
  const service = new SessionService({
    agents: BUILTIN_AGENTS,
    modes: BUILTIN_MODES,
    store,
    dataDir,
    settings: () => settings,
    llmFactory: (config) => {
      const gaps: number[] = [];
      sessionGaps.push(gaps);
      return timedLlm(createLlm(config), gaps);
    },
    warmUpParts,
  });
  const sessionIds: string[] = [];
  try {
    for (let i = 0; i < SESSIONS; i++) {
      const started = service.start({ task: `bench session ${i}` });
      sessionIds.push(started.sessionId);
      const result = await started.done;
      if (result.status !== 'finished') throw new Error(`the run ended ${result.status}: ${result.result}`);
    }
  } finally {
    await service.close();
    await Promise.all(sessionIds.map((id) => removeSessionSandbox(id)));
    store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return {
    first: median(sessionGaps.map((gaps) => gaps[0])),
    warm: median(sessionGaps.flatMap((gaps) => gaps.slice(1, PYTHON_CALLS))),
  };
}

async function main(): Promise<void> {
  const llm = await startFakeLlm(script);
  try {
    const rows = [];
    for (const warmUp of [false, true]) {
      const { first, warm } = await measure(warmUp, llm.baseUrl);
      const ratio = first / warm;
      rows.push({
        'warm-up': warmUp ? 'on' : 'off',
        'first call': `${first.toFixed(1)} ms`,
        'warm call': `${warm.toFixed(1)} ms`,
        ratio: `${ratio.toFixed(2)}×`,
        // without warm-up is the yardstick: what the first call cost before the sandbox started with the turn
        target: warmUp ? `≤ ${TARGET_RATIO}×` : '(yardstick)',
        met: warmUp ? (ratio <= TARGET_RATIO ? 'yes' : 'NO') : '',
      });
    }
    console.log(
      `First python_execute call of a new session vs later ones (median of ${SESSIONS} sessions, model latency ` +
        `${MODEL_LATENCY_MS} ms), from the model's tool-call reply to the result going back to the model:`,
    );
    console.table(rows);
  } finally {
    await llm.close();
  }
}

await main();
