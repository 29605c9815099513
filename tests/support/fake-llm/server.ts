import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { completionBody, estimateUsage, streamChunks } from './chunks.js';
import { schemaProblems } from './schema-rules.js';
import type { CapturedRequest, FakeAnswer, FakeFault, FakeLlm, FakeLlmOptions, FakeReply, Script } from './types.js';

const DEFAULT_MODELS = ['fake-model', 'gpt-4o-mini', 'o3-mini'];
const DEFAULT_CUT_AFTER_CHUNKS = 2;

const defaultScript: Script = () => ({ text: 'ok' });

function isFault(reply: FakeReply): reply is FakeFault {
  return 'fault' in reply;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

function sendError(response: ServerResponse, status: number, message: string, code: string | null, type: string) {
  sendJson(response, status, { error: { message, type, param: null, code } });
}

/**
 * A scripted OpenAI-compatible server on 127.0.0.1 for tests: chat completions (streamed and not) answered by
 * a script, GET /v1/models, injected faults (429, 500, hang, empty choices, cut stream, a 401 echoing the key, any
 * status, raw error bodies), and providers that refuse tools or tool schemas they do not accept.
 */
export async function startFakeLlm(script: Script = defaultScript, options: FakeLlmOptions = {}): Promise<FakeLlm> {
  let currentScript = script;
  let chatCount = 0;
  let closed = false;
  const requests: CapturedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const models = options.models ?? DEFAULT_MODELS;
  /** replies the server cut on purpose (not closed by the client) */
  const cutByServer = new WeakSet<ServerResponse>();

  /** The 400 a provider with `rejectTools` or `toolSchemaRules` gives this request, if any. */
  function refusalOf(body: unknown): string | undefined {
    const tools = (body as { tools?: { function?: { name?: string; parameters?: unknown } }[] }).tools;
    if (!tools?.length) return undefined;
    if (options.rejectTools) return options.rejectTools;
    const rules = options.toolSchemaRules;
    if (!rules) return undefined;
    const problems = tools.flatMap((tool) =>
      schemaProblems(rules, tool.function?.parameters).map((problem) => `${tool.function?.name}: ${problem}`),
    );
    return problems.length ? `Invalid schema for function parameters: ${problems.join('; ')}` : undefined;
  }

  /** Resolves after `ms`, or early (false) when the client went away or the server closes. */
  function wait(ms: number, response: ServerResponse): Promise<boolean> {
    if (ms <= 0) return Promise.resolve(!response.destroyed);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        response.off('close', onClose);
        resolve(!response.destroyed);
      }, ms);
      const onClose = () => {
        clearTimeout(timer);
        timers.delete(timer);
        resolve(false);
      };
      timers.add(timer);
      response.once('close', onClose);
    });
  }

  async function answerFault(
    fault: FakeFault,
    stream: boolean,
    response: ServerResponse,
    headers: IncomingHttpHeaders,
  ) {
    switch (fault.fault) {
      case 'rate_limit': {
        const headers: Record<string, string> = {};
        if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
        if (fault.retryAfterDate) headers['retry-after'] = fault.retryAfterDate.toUTCString();
        const error = {
          message: 'Rate limit reached, please retry later.',
          type: 'requests',
          param: null,
          code: 'rate_limit_exceeded',
        };
        return sendJson(response, 429, { error }, headers);
      }
      case 'unauthorized_echoing_key': {
        // as several OpenAI-compatible servers do: the refused key, whole, in the message
        const key = (headers.authorization ?? '').replace(/^Bearer\s+/i, '');
        return sendError(
          response,
          401,
          `Incorrect API key provided: ${key}.`,
          'invalid_api_key',
          'invalid_request_error',
        );
      }
      case 'server_error':
        return sendError(response, 500, 'The server had an error while processing your request.', null, 'server_error');
      case 'status':
        return sendError(
          response,
          fault.status,
          fault.message ?? `Scripted failure with status ${fault.status}`,
          fault.code ?? null,
          fault.status >= 500 ? 'server_error' : 'invalid_request_error',
        );
      case 'raw_error':
        response.writeHead(fault.status, { 'content-type': fault.contentType ?? 'text/plain' });
        response.end(fault.body);
        return;
      case 'hang':
        // never answer: the socket stays open until the client aborts or the server closes
        return;
      case 'empty_choices': {
        const base = { id: 'chatcmpl-empty', created: Math.floor(Date.now() / 1000), model: 'fake-model', choices: [] };
        if (!stream) return sendJson(response, 200, { ...base, object: 'chat.completion' });
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        response.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk' })}\n\n`);
        response.end('data: [DONE]\n\n');
        return;
      }
      case 'cut_stream': {
        const afterChunks = fault.afterChunks ?? DEFAULT_CUT_AFTER_CHUNKS;
        const context = { id: 'chatcmpl-cut', model: 'fake-model', created: Math.floor(Date.now() / 1000) };
        const answer = { text: 'This reply will be cut off before it is complete, mid way through.' };
        response.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' });
        if (stream) {
          for (const chunk of streamChunks(context, answer, 0, null).slice(0, afterChunks)) {
            response.write(`data: ${JSON.stringify(chunk)}\n\n`);
          }
        } else {
          response.write(JSON.stringify(completionBody(context, answer, 0, null)).slice(0, 40));
        }
        // let the written bytes leave before the connection dies mid-reply
        await wait(20, response);
        cutByServer.add(response);
        response.socket?.destroy();
        return;
      }
    }
  }

  async function answerCompletion(
    answer: FakeAnswer,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    body: any,
    index: number,
    response: ServerResponse,
  ) {
    if (answer.delayMs && !(await wait(answer.delayMs, response))) return;
    const context = {
      id: `chatcmpl-fake-${index}`,
      model: typeof body.model === 'string' ? body.model : 'fake-model',
      created: Math.floor(Date.now() / 1000),
    };
    const usage = answer.usage === null ? null : (answer.usage ?? estimateUsage(body, answer));
    if (!body.stream) return sendJson(response, 200, completionBody(context, answer, index, usage));

    const includeUsage = Boolean(body.stream_options?.include_usage);
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    for (const chunk of streamChunks(context, answer, index, includeUsage ? usage : null)) {
      if (answer.chunkDelayMs && !(await wait(answer.chunkDelayMs, response))) return;
      if (response.destroyed) return;
      response.write(`data: ${JSON.stringify(chunk)}\n\n`);
    }
    response.end('data: [DONE]\n\n');
  }

  async function route(request: IncomingMessage, response: ServerResponse) {
    const path = (request.url ?? '/').split('?')[0];
    const raw = await readBody(request);
    const method = request.method ?? 'GET';

    if (method === 'GET' && path === '/v1/models') {
      requests.push({ method, path, headers: request.headers, body: null, index: -1 });
      const data = models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake-llm' }));
      return sendJson(response, 200, { object: 'list', data });
    }
    if (method !== 'POST' || !path.endsWith('/chat/completions')) {
      requests.push({ method, path, headers: request.headers, body: raw || null, index: -1 });
      return sendError(response, 404, `No route ${method} ${path}`, 'not_found', 'invalid_request_error');
    }

    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      requests.push({ method, path, headers: request.headers, body: raw, index: -1 });
      return sendError(response, 400, 'Request body is not valid JSON', 'invalid_json', 'invalid_request_error');
    }
    const index = chatCount++;
    const captured: CapturedRequest = { method, path, headers: request.headers, body, index };
    requests.push(captured);
    response.once('close', () => {
      if (!response.writableFinished && !closed && !cutByServer.has(response)) captured.closedByClient = true;
    });
    const refusal = refusalOf(body);
    if (refusal) {
      captured.reply = { fault: 'status', status: 400, message: refusal };
      return sendError(response, 400, refusal, null, 'invalid_request_error');
    }
    const reply = await currentScript({ body, index, headers: request.headers });
    captured.reply = reply;
    const stream = Boolean((body as { stream?: boolean }).stream);
    if (isFault(reply)) return answerFault(reply, stream, response, request.headers);
    return answerCompletion(reply, body, index, response);
  }

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      if (response.headersSent) response.destroy();
      else sendError(response, 500, `fake-llm script failed: ${String(error)}`, 'script_error', 'server_error');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    get chatRequests() {
      return requests.filter((captured) => captured.index >= 0);
    },
    setScript(next: Script) {
      currentScript = next;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await stopped;
    },
  };
}
