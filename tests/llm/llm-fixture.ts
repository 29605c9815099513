import { afterEach, expect } from 'vitest';
import { createLlm, type LlmClient, type LlmClientOptions } from '../../src/main/llm/client.js';
import { LlmError } from '../../src/main/llm/errors.js';
import type { LlmConfigInput } from '../../src/shared/settings/llm-config.js';
import { startFakeLlm, type FakeLlm, type Script } from '../support/fake-llm/index.js';
import type { NoticeArgs } from '../../src/shared/notice-codes.js';

/** Backoff fast enough for tests; Retry-After from the server is still honoured as sent. */
export const FAST_RETRY: LlmClientOptions['retryTiming'] = { baseDelayMs: 5, maxDelayMs: 20 };

export interface Notice {
  code: string;
  text: string;
}

const servers: FakeLlm[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A fake server (closed after the test) and a client pointed at it. */
export async function fakeLlmClient(
  script?: Script,
  config: Partial<LlmConfigInput> = {},
): Promise<{ server: FakeLlm; llm: LlmClient }> {
  const server = await startFakeLlm(script);
  servers.push(server);
  const llm = createLlm(
    { provider: 'compatible', model: 'fake-model', baseUrl: server.baseUrl, requestTimeoutMs: 5_000, ...config },
    { retryTiming: FAST_RETRY },
  );
  return { server, llm };
}

export function noticeCollector() {
  const notices: Notice[] = [];
  // the notice's values are checked by the tests that need them, through the session's events
  return { notices, onNotice: (...[code, text]: NoticeArgs) => void notices.push({ code, text }) };
}

/** The LlmError a request ends with (the test fails if it succeeds or throws something else). */
export async function failure(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LlmError);
  return error as LlmError;
}
