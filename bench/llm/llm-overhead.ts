/**
 * LLM layer overhead: requests against the scripted fake server answering at once (so the time is the client's
 * and the local HTTP round trip), token counting and context fitting of a long conversation.
 * Run: npx tsx bench/llm/llm-overhead.ts
 */
import { createLlm } from '../../src/main/llm/client.js';
import { fitContext } from '../../src/main/llm/context-fit.js';
import { createTokenCounter } from '../../src/main/llm/tokens.js';
import { parseTextToolCalls } from '../../src/main/llm/text-tool-calls.js';
import type { ChatMessage } from '../../src/shared/chat-message.js';
import { startFakeLlm } from '../../tests/support/fake-llm/index.js';

const REQUESTS = 300;
const FIT_RUNS = 30;

interface Row {
  name: string;
  runs: number;
  p50: number;
  p99: number;
  max: number;
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
}

async function measure(name: string, runs: number, work: () => unknown): Promise<Row> {
  const times: number[] = [];
  await work(); // warm-up run, not measured
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { name, runs, p50: percentile(times, 0.5), p99: percentile(times, 0.99), max: times.at(-1) ?? 0 };
}

function conversation(messages: number, outputLines: number): ChatMessage[] {
  const memory: ChatMessage[] = [
    { role: 'system', content: 'You are Manus.' },
    { role: 'user', content: 'Analyse the logs.' },
  ];
  for (let step = 0; memory.length < messages; step++) {
    memory.push({
      role: 'assistant',
      content: null,
      toolCalls: [{ id: `c${step}`, name: 'bash', arguments: '{"command":"cat x"}' }],
    });
    const lines = Array.from(
      { length: outputLines },
      (_, line) => `step ${step} line ${line}: GET /api/${line} 200 12ms`,
    );
    memory.push({ role: 'tool', toolCallId: `c${step}`, content: lines.join('\n') });
  }
  return memory;
}

const tools = [
  {
    name: 'bash',
    description: 'Run a shell command',
    parameters: { type: 'object', properties: { command: { type: 'string' } } },
  },
];

const server = await startFakeLlm((request) =>
  request.body.tools
    ? {
        toolCalls: [
          { name: 'bash', arguments: { command: 'ls' } },
          { name: 'bash', arguments: { command: 'pwd' } },
          { name: 'bash', arguments: { command: 'whoami' } },
        ],
      }
    : { text: 'A short streamed answer of about a dozen words in several chunks.' },
);
const llm = createLlm({ provider: 'compatible', model: 'gpt-4o', baseUrl: server.baseUrl });
const short = conversation(20, 5);
const long = conversation(300, 400);
const rows: Row[] = [];

await llm.ask(short); // warm up the connection and tokenizer
rows.push(await measure('ask, streamed (20 msgs)', REQUESTS, () => llm.ask(short)));
rows.push(await measure('ask, not streamed (20 msgs)', REQUESTS, () => llm.ask(short, { stream: false })));
rows.push(await measure('askTool, 3 calls streamed', REQUESTS, () => llm.askTool(short, { tools })));
rows.push(await measure('askTool, 300 msgs fitted', FIT_RUNS, () => llm.askTool(long, { tools })));

const counter = createTokenCounter('gpt-4o', { vision: false });
rows.push(
  await measure('count 300 msgs, cold', FIT_RUNS, () => createTokenCounter('gpt-4o', { vision: false }).messages(long)),
);
rows.push(await measure('count 300 msgs, memoised', FIT_RUNS, () => counter.messages(long)));
// base64 or minified code: one unbroken run the tokenizer must not go quadratic on
const unbroken = 'x'.repeat(200_000);
const unbrokenRow = await measure('count a 200 K-char unbroken run', FIT_RUNS, () => counter.text(unbroken));
rows.push(unbrokenRow);
rows.push(await measure('fitContext 300 msgs → 32k', FIT_RUNS, () => fitContext(long, { budget: 32_000, counter })));
const textReply = 'Sure.\n```json\n{"tool_calls":[{"name":"bash","arguments":{"command":"ls"}}]}\n```';
rows.push(await measure('parse JSON tool calls from text', REQUESTS, () => parseTextToolCalls(textReply, tools)));
await server.close();

const totalChars = long.reduce((sum, message) => sum + (message.content?.length ?? 0), 0);
console.log(`300-message conversation: ${(totalChars / 1e6).toFixed(1)} M chars, ${counter.messages(long)} tokens\n`);
console.log(
  `${'case'.padEnd(34)} ${'runs'.padStart(5)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)} ${'max ms'.padStart(9)}`,
);
for (const row of rows) {
  console.log(
    `${row.name.padEnd(34)} ${String(row.runs).padStart(5)} ${row.p50.toFixed(2).padStart(9)} ${row.p99.toFixed(2).padStart(9)} ${row.max.toFixed(2).padStart(9)}`,
  );
}
// the bound tests/llm/tokens.test.ts once asserted
console.log(
  `\n200 K-char unbroken run vs the 1000 ms yardstick: p99 / yardstick ${(unbrokenRow.p99 / 1000).toFixed(2)}`,
);
