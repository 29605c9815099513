import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CoreEvent, CoreEventOf } from '../../src/shared/events.js';
import { SessionMcp } from '../../src/main/mcp/session-mcp.js';
import { MAX_LOG_MESSAGE_CHARS, MAX_SERVER_LOG_BYTES } from '../../src/main/mcp/server-log.js';
import { MAX_SAMPLING_REQUESTS_PER_WINDOW } from '../../src/main/mcp/sampling-limits.js';
import { MAX_RESULT_IMAGE_BYTES, MAX_STORED_RESULT_CHARS } from '../../src/main/agent/result-bounds.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import type { Script } from '../support/fake-llm/index.js';
import { waitFor } from '../support/wait-for.js';
import { startAskingHttpServer } from './support/asking-http.js';
import { createHostileServer } from './fixtures/hostile-server.js';

const MEGABYTE = 1024 * 1024;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * The real core with the hostile server connected over HTTP on loopback, as a remote server would be, under the
 * default approval policy (`auto`). The model calls `tool` once, then finishes; a request without tools (a
 * sampling request) is answered "fine".
 */
async function startSession(tool: string, args: object): Promise<CoreHarness & { logDir: string }> {
  const http = await startAskingHttpServer(createHostileServer);
  cleanups.push(() => http.close());
  let turn = 0;
  const script: Script = ({ body }) => {
    if (!body.tools) return { text: 'fine' };
    turn++;
    if (turn === 1) return { text: 'Calling it.', toolCalls: [{ name: `mcp_hostile_${tool}`, arguments: args }] };
    return { text: 'Finished.', toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] };
  };
  const logDir = mkdtempSync(join(tmpdir(), 'manus-hostile-logs-'));
  const sessionMcp = new SessionMcp(logDir);
  const harness = await startCoreHarness(script, {
    settings: { mcp: { servers: { hostile: { type: 'http', url: http.url } } } },
    service: {
      extraTools: sessionMcp.extraTools,
      onSessionLive: sessionMcp.open,
      onSessionReleased: sessionMcp.close,
      prepareRun: async ({ session }) => {
        await sessionMcp.ready(session);
      },
    },
  });
  cleanups.push(
    () => harness.close(),
    () => rmSync(logDir, { recursive: true, force: true }),
  );
  return { ...harness, logDir };
}

function bytesUnder(folder: string): number {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

/** Resolves once `measure` gave the same figure twice in a row, 200 ms apart (the log's writes are done). */
async function settled(measure: () => number): Promise<void> {
  let last = -1;
  await waitFor(
    () => {
      const now = measure();
      const same = now === last;
      last = now;
      return same;
    },
    30_000,
    'the log to settle',
    200,
  );
}

function toolEvents(events: CoreEvent[], name: string): CoreEventOf<'tool'>[] {
  return events.filter((event): event is CoreEventOf<'tool'> => event.type === 'tool' && event.name === name);
}

function lastToolMessage(harness: CoreHarness): string {
  const last = harness.llm.chatRequests.filter((request) => request.body.tools).at(-1);
  const toolMessage = last?.body.messages.findLast((message: { role: string }) => message.role === 'tool');
  return String(toolMessage?.content ?? '');
}

describe('a hostile MCP server cannot make the client write without bound', () => {
  it('keeps 50 log messages of 1 MB to a bounded log file, clipped lines on the tool card and a small database', async () => {
    const harness = await startSession('flood_logs', { count: 50 });
    const { done } = harness.service.start({ task: 'Flood' });
    expect((await done).status).toBe('finished');
    expect(lastToolMessage(harness)).toBe('sent 50 log messages of 1 MB');
    const logPath = join(harness.logDir, 'mcp-hostile.log');
    await waitFor(() => existsSync(logPath), 10_000, 'the log');
    await settled(() => bytesUnder(harness.logDir));
    // 50 MB came in; the log holds the clipped messages, and could never pass its current file and one older one
    expect(bytesUnder(harness.logDir)).toBeLessThan(50 * (MAX_LOG_MESSAGE_CHARS + 100));
    expect(bytesUnder(harness.logDir)).toBeLessThanOrEqual(2 * MAX_SERVER_LOG_BYTES);
    expect(readFileSync(logPath, 'utf8').split('more characters cut]')).toHaveLength(51);
    const progress = toolEvents(harness.events, 'mcp_hostile_flood_logs').map((event) => event.progress ?? '');
    const shown = progress.join('');
    expect(shown).toContain('more characters cut]');
    expect(shown.length).toBeLessThan(50 * (MAX_LOG_MESSAGE_CHARS + 100));
    await harness.service.close();
    // 50 MB came in; what the store kept is the clipped lines
    expect(bytesUnder(harness.dataDir)).toBeLessThan(8 * MEGABYTE);
  });

  it('stores a 50 MB text result clipped, with a note saying how much was cut', async () => {
    const harness = await startSession('huge_text', { megabytes: 50 });
    const { done } = harness.service.start({ task: 'Fetch the text' });
    expect((await done).status).toBe('finished');
    const finished = toolEvents(harness.events, 'mcp_hostile_huge_text').find((event) => event.status === 'done');
    const output = finished?.output ?? '';
    expect(output.length).toBeLessThanOrEqual(MAX_STORED_RESULT_CHARS);
    expect(output.startsWith('START')).toBe(true);
    expect(output.endsWith('END')).toBe(true);
    expect(output).toMatch(/\[\.\.\. \d+ characters of output cut \(limit 100000\) \.\.\.\]/);
    const stored = harness.store
      .listEvents(finished!.sessionId)
      .find((event) => event.type === 'tool' && event.toolId === finished!.toolId && event.status === 'done');
    expect(stored && 'output' in stored ? stored.output : '').toBe(output);
    await harness.service.close();
    expect(bytesUnder(harness.dataDir)).toBeLessThan(8 * MEGABYTE);
  });

  it('leaves a 20 MB image out of the result, stored and shown to the model, with a note naming it', async () => {
    const harness = await startSession('huge_image', { megabytes: 20 });
    const { done } = harness.service.start({ task: 'Fetch the picture' });
    expect((await done).status).toBe('finished');
    const finished = toolEvents(harness.events, 'mcp_hostile_huge_image').find((event) => event.status === 'done');
    expect(finished?.images).toBeUndefined();
    const note = `[image image/png of ${20 * MEGABYTE} bytes left out: a tool result may carry ${MAX_RESULT_IMAGE_BYTES} bytes of images]`;
    expect(finished?.output).toBe(`here is the picture\n${note}`);
    expect(lastToolMessage(harness)).toContain(note);
    await harness.service.close();
    expect(bytesUnder(harness.dataDir)).toBeLessThan(8 * MEGABYTE);
  });

  it("asks the person before sampling under the default policy, and refuses past the server's rate limit", async () => {
    const harness = await startSession('sample_many', { count: 25 });
    const { done } = harness.service.start({ task: 'Let the server ask' });
    await waitFor(
      () => harness.events.some((event) => event.type === 'ask' && event.status === 'waiting'),
      30_000,
      'the sampling approval',
    );
    const ask = harness.events.find((event): event is CoreEventOf<'ask'> => event.type === 'ask')!;
    expect(ask.kind).toBe('approval');
    expect(ask.tool?.name).toBe('sampling:hostile');
    // the server asked for a million tokens; the request shown (and sent) asks for what one request may have
    expect((ask.tool?.args as { maxTokens: number }).maxTokens).toBe(4_096);
    // nothing reached the model on the server's behalf before the person answered
    expect(harness.llm.chatRequests.filter((request) => !request.body.tools)).toHaveLength(0);
    // "always": this server may sample without asking again, within its limits
    harness.service.answer(ask.sessionId, ask.askId, 'a');
    expect((await done).status).toBe('finished');
    const asks = harness.events.filter((event) => event.type === 'ask' && event.status === 'waiting');
    expect(asks).toHaveLength(1);
    expect(harness.llm.chatRequests.filter((request) => !request.body.tools)).toHaveLength(
      MAX_SAMPLING_REQUESTS_PER_WINDOW,
    );
    expect(lastToolMessage(harness)).toContain(
      `answered ${MAX_SAMPLING_REQUESTS_PER_WINDOW}, refused ${25 - MAX_SAMPLING_REQUESTS_PER_WINDOW}; first refusal: MCP error -1: The sampling request was declined: it already sent ${MAX_SAMPLING_REQUESTS_PER_WINDOW} sampling requests in the last 60 s`,
    );
  });
});
