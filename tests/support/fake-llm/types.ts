import type { IncomingHttpHeaders } from 'node:http';
import type { ToolSchemaRules } from './schema-rules.js';

export interface FakeToolCall {
  name: string;
  /** an object is JSON-encoded; a string is sent raw (so malformed JSON reaches the client as written) */
  arguments: string | object;
  id?: string;
}

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

export interface FakeAnswer {
  text?: string;
  toolCalls?: FakeToolCall[];
  /** null sends no usage at all; omitted sends a rough estimate */
  usage?: FakeUsage | null;
  finishReason?: string;
  /** wait before answering */
  delayMs?: number;
  /** wait between streamed chunks */
  chunkDelayMs?: number;
  /** 'no_index' streams tool-call pieces without their `index` field, as SGLang does */
  toolCallDeltas?: 'indexed' | 'no_index';
}

export type FakeFault =
  | { fault: 'rate_limit'; retryAfterSeconds?: number; retryAfterDate?: Date }
  | { fault: 'server_error' }
  /** 401 whose message quotes the request's API key in full */
  | { fault: 'unauthorized_echoing_key' }
  | { fault: 'hang' }
  | { fault: 'empty_choices' }
  | { fault: 'cut_stream'; afterChunks?: number }
  | { fault: 'status'; status: number; message?: string; code?: string }
  /** an error with this body as written: a JSON array (Gemini's OpenAI endpoint), plain text, HTML */
  | { fault: 'raw_error'; status: number; body: string; contentType?: string };

export type FakeReply = FakeAnswer | FakeFault;

export interface ScriptRequest {
  /** the parsed chat.completions body */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** 0-based count of chat requests this server has seen */
  index: number;
  headers: IncomingHttpHeaders;
}

export type Script = (request: ScriptRequest) => FakeReply | Promise<FakeReply>;

export interface CapturedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** 0-based index among chat requests; -1 for other routes */
  index: number;
  /** what the script answered (chat requests only) */
  reply?: FakeReply;
  /** the client closed the connection before the answer was complete (abort, timeout) */
  closedByClient?: boolean;
}

export interface FakeLlmOptions {
  /** ids listed by GET /v1/models */
  models?: string[];
  /** a provider that refuses the tools parameter: any request with `tools` gets this 400 message (the script is not asked) */
  rejectTools?: string;
  /** a provider that checks tool parameter schemas by these rules and answers 400 naming what it refuses */
  toolSchemaRules?: ToolSchemaRules;
}

export interface FakeLlm {
  /** e.g. http://127.0.0.1:40123/v1 */
  baseUrl: string;
  requests: CapturedRequest[];
  /** requests to /chat/completions only */
  readonly chatRequests: CapturedRequest[];
  setScript(script: Script): void;
  close(): Promise<void>;
}
