import type OpenAI from 'openai';
import { LlmConfigSchema, type LlmConfig, type LlmConfigInput } from '../../shared/settings/llm-config.js';
import type { AskOptions, AskToolOptions, Llm, LlmReply, ToolChoice, ToolSpec } from './types.js';
import type { ChatMessage, ToolCall } from '../../shared/chat-message.js';
import { AttemptScope } from './attempt-scope.js';
import { fitContext } from './context-fit.js';
import { LlmError, isLlmError } from './errors.js';
import { supportsVision } from './model-traits.js';
import type { LlmNoticeCode } from './notices.js';
import type { NoticeArgs } from '../../shared/notice-codes.js';
import { createSdkClient, type SdkClientOptions } from './providers.js';
import { requestBody } from './request-body.js';
import {
  argumentsWithoutOptionalNulls,
  parametersFor,
  schemaDialectOf,
  type SchemaDialect,
} from './schema-dialects.js';
import { cancelledError, withRetry, type RetryTiming } from './retry.js';
import { readCompletion, readStream, ReplyTooLargeError, type RawReply } from './stream-reader.js';
import { createTokenCounter, type TokenCounter } from './tokens.js';
import { TextToolCallFilter } from './text-tool-calls.js';
import { ToolRefusals, isToolsUnsupportedError, toTextToolMessages } from './tool-fallback.js';
import { repairToolPairs } from './tool-pairs.js';
import { requestUsage, type Pricing } from './usage.js';
import { pricingFor } from './pricing.js';
import { withoutImages } from './vision.js';
import { toWireMessages, toWireTools } from './wire-format.js';

/** Our token count is for OpenAI tokenizers; other models count differently, so leave headroom. */
const CONTEXT_SAFETY_SHARE = 0.92;
/** After the server still says the context is too long, fit into this share of the budget. */
const HARDER_SHRINK_SHARE = 0.6;
/** The completion never takes more than this share of the context window. */
const MAX_COMPLETION_SHARE = 0.5;
const TASK_TOO_LARGE_HINT =
  'Shorten the task, or save the long text in a file of the workspace and ask the agent to read it; a model with a ' +
  'larger context window (and its contextWindow setting) also helps.';

export interface LlmClientOptions extends SdkClientOptions {
  /** backoff timing (tests make it fast) */
  retryTiming?: Partial<RetryTiming>;
  /** models whose provider refused the tools parameter, shared by the clients of later turns */
  toolRefusals?: ToolRefusals;
}

interface ToolRequest {
  tools: ToolSpec[];
  toolChoice: ToolChoice;
}

function refusesStreamUsage(error: LlmError): boolean {
  return error.code === 'bad_request' && /stream_options|include_usage/i.test(error.message);
}

function notify(options: AskOptions, ...notice: NoticeArgs<LlmNoticeCode>): void {
  options.onNotice?.(...notice);
}

/** The one LLM client: any OpenAI-compatible provider through the openai SDK, with retries and context fitting. */
export class LlmClient implements Llm {
  readonly model: string;
  readonly supportsVision: boolean;
  private readonly sdk: OpenAI;
  private readonly counter: TokenCounter;
  private readonly toolRefusals: ToolRefusals;
  /** how this provider family wants tool schemas (OpenAI strict, Gemini, as is) */
  private schemaDialect: SchemaDialect;
  private toolNoticeSent = false;
  private textCallNoticeSent = false;
  /** false once the server refused stream_options (usage is then counted with the tokenizer) */
  private streamUsage = true;
  /** unknown for a model without a set or known price: usage then has no cost */
  private readonly pricing: Pricing | undefined;

  constructor(
    readonly config: LlmConfig,
    private readonly options: LlmClientOptions = {},
  ) {
    this.model = config.model;
    this.supportsVision = supportsVision(config);
    this.sdk = createSdkClient(config, options);
    this.counter = createTokenCounter(config.model, { vision: this.supportsVision, imageDetail: config.imageDetail });
    this.pricing = pricingFor(config);
    this.toolRefusals = options.toolRefusals ?? new ToolRefusals();
    this.schemaDialect = schemaDialectOf(config);
  }

  /** false when the setting says so or the provider refused the tools parameter for this model */
  private get nativeTools(): boolean {
    return this.config.toolCalling !== false && !this.toolRefusals.has(this.config);
  }

  ask(messages: ChatMessage[], options: AskOptions = {}): Promise<LlmReply> {
    return this.complete(messages, options);
  }

  askTool(messages: ChatMessage[], options: AskToolOptions): Promise<LlmReply> {
    const toolChoice = options.toolChoice ?? 'auto';
    return this.complete(messages, options, { tools: options.tools, toolChoice });
  }

  private async complete(messages: ChatMessage[], options: AskOptions, tools?: ToolRequest): Promise<LlmReply> {
    if (options.signal?.aborted) throw cancelledError();
    const prepared = this.imagesForModel(repairToolPairs(messages).messages, options);
    const wantsTools = tools !== undefined && tools.tools.length > 0;
    if (wantsTools && !this.nativeTools) return this.completeWithTextTools(prepared, options, tools);
    if (!wantsTools) return this.request(prepared, options);
    return this.completeWithTools(prepared, options, tools);
  }

  /** Native tool calling, and the text protocol when the provider refuses the tools parameter. */
  private async completeWithTools(messages: ChatMessage[], options: AskOptions, tools: ToolRequest): Promise<LlmReply> {
    try {
      return await this.completeWithNativeTools(messages, options, tools);
    } catch (error) {
      if (!isLlmError(error)) throw error;
      if (this.refusesStrictSchemas(error)) {
        // a schema strict mode cannot take (an MCP tool's): the tools go as they are, without strict, from now on
        this.schemaDialect = 'plain';
        return this.completeWithTools(messages, options, tools);
      }
      if (!isToolsUnsupportedError(error)) throw error;
      if (this.config.toolCalling === true) {
        throw new LlmError('no_tool_support', `model ${this.model} does not support tool calling (${error.message})`, {
          status: error.status,
          cause: error,
        });
      }
      this.toolRefusals.add(this.config);
      notify(
        options,
        'no_tool_support',
        `The provider refused tool calling for model ${this.model} (${error.message}); from now on tools are described in the prompt and calls read from the model's replies.`,
        { model: this.model },
      );
      return this.completeWithTextTools(messages, options, tools);
    }
  }

  /** The tools API, and calls the model wrote as text anyway (Hermes/Qwen tags, bare JSON) read from its reply. */
  private async completeWithNativeTools(
    messages: ChatMessage[],
    options: AskOptions,
    tools: ToolRequest,
  ): Promise<LlmReply> {
    if (tools.toolChoice === 'none') return this.request(messages, options, tools);
    const filter = new TextToolCallFilter(options.onDelta, tools.tools);
    const reply = await this.request(messages, { ...options, onDelta: filter.push }, tools);
    if (reply.toolCalls.length > 0) {
      filter.flush();
      return { ...reply, toolCalls: this.withoutStrictNulls(reply.toolCalls, tools.tools) };
    }
    const parsed = filter.finish(reply.text);
    if (parsed.toolCalls.length === 0) return reply;
    if (!this.textCallNoticeSent) {
      this.textCallNoticeSent = true;
      notify(
        options,
        'text_tool_calls',
        `Model ${this.model} wrote its tool calls as text instead of using the tools API; they were read from its reply.`,
        { model: this.model },
      );
    }
    return { ...reply, text: parsed.text, toolCalls: parsed.toolCalls, finishReason: 'tool_calls' };
  }

  private refusesStrictSchemas(error: LlmError): boolean {
    return (
      this.schemaDialect === 'openai-strict' &&
      error.code === 'bad_request' &&
      /invalid schema|strict/i.test(`${error.message} ${(error.cause as Error | undefined)?.message ?? ''}`)
    );
  }

  /** Strict mode had optional parameters sent as required and nullable: a null there means "not given". */
  private withoutStrictNulls(calls: ToolCall[], specs: readonly ToolSpec[]): ToolCall[] {
    if (this.schemaDialect !== 'openai-strict') return calls;
    return calls.map((call) => {
      const spec = specs.find((tool) => tool.name === call.name);
      if (!spec || !parametersFor(this.schemaDialect, spec.parameters).strict) return call;
      return { ...call, arguments: argumentsWithoutOptionalNulls(call.arguments, spec.parameters) };
    });
  }

  private imagesForModel(messages: ChatMessage[], options: AskOptions): ChatMessage[] {
    if (this.supportsVision) return messages;
    const { messages: stripped, dropped } = withoutImages(messages);
    if (dropped > 0) {
      notify(options, 'image_dropped', `${dropped} image(s) left out: model ${this.model} does not take images`, {
        count: dropped,
        model: this.model,
      });
    }
    return stripped;
  }

  /** Tools described in the system prompt; calls parsed from JSON in the reply. */
  private async completeWithTextTools(
    messages: ChatMessage[],
    options: AskOptions,
    tools: ToolRequest,
  ): Promise<LlmReply> {
    // a refusal by the provider was told when it happened (once per core, see ToolRefusals)
    if (this.config.toolCalling === false && !this.toolNoticeSent) {
      this.toolNoticeSent = true;
      notify(
        options,
        'no_tool_support',
        `Model ${this.model} does not support tool calling; tools are described in the prompt and calls read from JSON in its replies.`,
        { model: this.model },
      );
    }
    if (tools.toolChoice === 'none') return this.request(messages, options);
    const rewritten = toTextToolMessages(messages, tools.tools, tools.toolChoice);
    // the raw reply holds the JSON of the calls: only the prose reaches onDelta
    const filter = new TextToolCallFilter(options.onDelta, tools.tools);
    const reply = await this.request(rewritten, { ...options, onDelta: filter.push });
    const parsed = filter.finish(reply.text);
    return {
      ...reply,
      text: parsed.text,
      toolCalls: parsed.toolCalls,
      finishReason: parsed.toolCalls.length ? 'tool_calls' : reply.finishReason,
    };
  }

  private completionBudget(options: AskOptions): number {
    const wanted = options.maxTokens ?? this.config.maxTokens;
    return Math.max(1, Math.min(wanted, Math.floor(this.config.contextWindow * MAX_COMPLETION_SHARE)));
  }

  private async request(
    messages: ChatMessage[],
    options: AskOptions,
    tools?: ToolRequest,
    shrink = 1,
  ): Promise<LlmReply> {
    const maxTokens = this.completionBudget(options);
    const toolTokens = tools ? this.counter.tools(tools.tools) : 0;
    const budget = Math.floor((this.config.contextWindow - maxTokens - toolTokens) * CONTEXT_SAFETY_SHARE * shrink);
    const fit = fitContext(messages, { budget, counter: this.counter });
    if (!fit.fits) {
      const room = `model ${this.model} has room for ${budget} (contextWindow ${this.config.contextWindow}, maxTokens ${maxTokens}, tools ${toolTokens})`;
      if (fit.fixedTokens > budget) {
        throw new LlmError(
          'context_length',
          `the task and the system prompt take ${fit.fixedTokens} tokens, more than the context of the model: ${room}`,
          { hint: TASK_TOO_LARGE_HINT, reason: 'task_too_large' },
        );
      }
      throw new LlmError('context_length', `the conversation needs ${fit.tokens} tokens but ${room}`);
    }
    if (fit.shortenedOutputs > 0 || fit.droppedMessages > 0) {
      notify(
        options,
        'context_fitted',
        `Fitted the conversation into the context of ${this.model}: ${fit.shortenedOutputs} tool output(s) shortened, ${fit.droppedMessages} old message(s) left out.`,
        { model: this.model, shortened: fit.shortenedOutputs, dropped: fit.droppedMessages },
      );
    }
    const body = requestBody(this.config, {
      messages: toWireMessages(fit.messages, { imageDetail: this.config.imageDetail }),
      tools: tools ? toWireTools(tools.tools, this.schemaDialect) : undefined,
      toolChoice: tools?.toolChoice,
      maxTokens,
    });
    const promptTokens = fit.tokens + toolTokens;
    try {
      return await withRetry(() => this.attempt(body, options, promptTokens), {
        maxAttempts: this.config.maxAttempts,
        signal: options.signal,
        timing: this.options.retryTiming,
        onRetry: (error, attempt, delayMs) =>
          notify(
            options,
            'retrying',
            `${error.message}; retrying in ${(delayMs / 1000).toFixed(1)} s (attempt ${attempt + 1} of ${this.config.maxAttempts}); a streamed reply starts over.`,
            // an absolute time, so a countdown stays right after a reload
            {
              reason: error.code,
              retryAt: Date.now() + delayMs,
              attempt: attempt + 1,
              maxAttempts: this.config.maxAttempts,
            },
          ),
      });
    } catch (error) {
      if (shrink === 1 && isLlmError(error, 'context_length')) {
        notify(
          options,
          'context_fitted',
          `The server said the conversation is too long for ${this.model}; shrinking it harder.`,
          { model: this.model },
        );
        return this.request(messages, options, tools, HARDER_SHRINK_SHARE);
      }
      throw error;
    }
  }

  private emptyReplyError(raw: RawReply): LlmError {
    if (!raw.sawChoice) return new LlmError('empty_reply', `model ${this.model} answered with no choices`);
    if (raw.finishReason === 'length') {
      return new LlmError('empty_reply', `model ${this.model} used all its completion tokens without an answer`, {
        hint: 'Raise maxTokens of this LLM (reasoning models spend tokens on thinking first).',
        retryable: false,
        reason: 'out_of_tokens',
      });
    }
    return new LlmError('empty_reply', `model ${this.model} answered with an empty message`);
  }

  private async attempt(
    body: ReturnType<typeof requestBody>,
    options: AskOptions,
    promptTokens: number,
  ): Promise<LlmReply> {
    const scope = new AttemptScope(options.signal, this.config.requestTimeoutMs, this.model, this.config.apiKey);
    let raw: RawReply;
    try {
      if (options.stream === false) {
        raw = readCompletion(await scope.race(this.sdk.chat.completions.create(body, { signal: scope.signal })));
      } else {
        const usageOption = this.streamUsage ? { stream_options: { include_usage: true } } : {};
        const stream = await scope.race(
          this.sdk.chat.completions.create({ ...body, stream: true, ...usageOption }, { signal: scope.signal }),
        );
        raw = await scope.race(
          readStream(stream, {
            onDelta: options.onDelta,
            onProgress: scope.touch,
            maxChars: this.config.maxReplyChars,
          }),
        );
      }
    } catch (error) {
      if (error instanceof ReplyTooLargeError) {
        throw new LlmError('reply_too_large', `model ${this.model}: ${error.message}`);
      }
      const failure = scope.explain(error);
      if (this.streamUsage && options.stream !== false && refusesStreamUsage(failure)) {
        // an older compatible server that does not know stream_options: ask again without it, count usage ourselves
        this.streamUsage = false;
        return this.attempt(body, options, promptTokens);
      }
      throw failure;
    } finally {
      scope.dispose();
    }
    if (!raw.sawChoice || (raw.text === '' && raw.toolCalls.length === 0)) throw this.emptyReplyError(raw);
    const completionTokens =
      this.counter.text(raw.text) +
      raw.toolCalls.reduce((sum, call) => sum + this.counter.text(call.name + call.arguments), 0);
    const usage = requestUsage(raw.serverUsage, { promptTokens, completionTokens }, this.pricing);
    options.onUsage?.(usage, this.model);
    return { text: raw.text, toolCalls: raw.toolCalls, usage, finishReason: raw.finishReason };
  }
}

/** Build the client for a configured LLM; a bad or incomplete config is a clear LlmError. */
export function createLlm(config: LlmConfigInput, options?: LlmClientOptions): LlmClient {
  const parsed = LlmConfigSchema.safeParse(config);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'config'}: ${issue.message}`);
    throw new LlmError('invalid_config', `invalid LLM settings: ${problems.join('; ')}`);
  }
  return new LlmClient(parsed.data, options);
}
