import { randomUUID } from 'node:crypto';
import type { LlmReply, ToolChoice } from '../llm/types.js';
import type { ChatMessage, ToolCall } from '../../shared/chat-message.js';
import type { Image } from '../../shared/events.js';
import { allowAllTools, type ToolGate } from '../tool/tool-gate.js';
import { ToolCollection } from '../tool/tool-collection.js';
import { TERMINATE_TOOL_NAME } from '../tool/terminate.js';
import type { AnyTool } from '../tool/tool.js';
import type { AgentDeps } from './base-agent.js';
import { ReActAgent } from './react-agent.js';
import { createImageObserver, noVisionModel, type ImageObserver } from './image-observation.js';
import { executeToolCall, type ToolCallOutcome } from './tool-execution.js';
import { noticeEvent } from '../../shared/notice-codes.js';
import { readStepPage, type StepPage } from './browser-step-state.js';
import { BROWSER_NEXT_STEP_PROMPT, browserNextStepPrompt } from './prompts/browser-prompt.js';

/** the tool whose use gives the agent's next step the browser's page state */
const BROWSER_TOOL_NAME = 'browser_use';

export const DEFAULT_MAX_OBSERVE = 10_000;

export interface ToolCallAgentDeps extends AgentDeps {
  /** the agent's tools, read at every step so tools added at run time (MCP) are seen */
  tools: () => AnyTool[];
  maxObserve?: number;
  gate?: ToolGate;
}

/** An agent that thinks with the model's tool calling and acts by running the calls, concurrently. */
export abstract class ToolCallAgent extends ReActAgent {
  protected toolChoice: ToolChoice = 'auto';
  protected readonly specialToolNames = new Set([TERMINATE_TOOL_NAME]);
  protected abstract readonly systemPrompt: string;
  protected readonly nextStepPrompt: string = '';
  /** the browser agent reads the page before every step; others only in the step after they used the browser */
  protected readonly pageStateEveryStep: boolean = false;
  /** the page read for the step being thought about */
  private stepPage: StepPage | undefined;
  private usedBrowser = false;
  /** the MCP servers whose tools the model had at its last step, with their tools' names */
  private mcpServersShown?: Map<string, string[]>;
  private readonly mcpServersDown = new Set<string>();
  private pendingCalls: ToolCall[] = [];
  private lastAnswer = '';
  /** the message event that carries lastAnswer: what the agent produced is shown under it */
  private lastAnswerMessageId: string | undefined;
  private imageObserver: ImageObserver | undefined;

  constructor(protected override readonly deps: ToolCallAgentDeps) {
    super(deps);
  }

  protected toolCollection(): ToolCollection {
    return new ToolCollection(this.deps.tools(), (text, tool) =>
      this.deps.emit(noticeEvent(this.deps.sessionId, 'warning', 'tool_name_clash', text, { tool })),
    );
  }

  /** The agent's last answer as shown (its message event's id and text), when it wrote one. */
  get answer(): { messageId: string; text: string } | undefined {
    return this.lastAnswerMessageId ? { messageId: this.lastAnswerMessageId, text: this.lastAnswer } : undefined;
  }

  /** The messages sent to the model: system prompt, memory, then this step's prompt. */
  protected requestMessages(): ChatMessage[] {
    // after a browser action the step prompt is the browser's, with the page state (OpenManus's BrowserContextHelper)
    const page = this.stepPage;
    const nextStep = page ? BROWSER_NEXT_STEP_PROMPT : this.nextStepPrompt;
    const stepPrompt = [this.nextStepNudge, nextStep].filter(Boolean).join('\n\n');
    this.nextStepNudge = '';
    const messages: ChatMessage[] = [{ role: 'system', content: this.systemPrompt }, ...this.memory.messages];
    if (page) {
      // neither the state nor the screenshot is kept in memory: they are the page of this step only
      messages.push({
        role: 'user',
        content: browserNextStepPrompt(page.state, stepPrompt),
        ...(page.screenshot ? { images: [page.screenshot] } : {}),
      });
    } else if (stepPrompt) messages.push({ role: 'user', content: stepPrompt });
    return messages;
  }

  protected async think(signal: AbortSignal): Promise<boolean> {
    const wantsPage = this.pageStateEveryStep || this.usedBrowser;
    this.usedBrowser = false;
    this.stepPage = wantsPage
      ? await readStepPage(this.deps.session.browser, { sees: this.llm.supportsVision, signal })
      : undefined;
    try {
      return await this.thinkWithModel(signal);
    } finally {
      this.stepPage = undefined;
    }
  }

  private async thinkWithModel(signal: AbortSignal): Promise<boolean> {
    const tools = this.toolCollection();
    this.noteMcpServerChanges();
    const messageId = randomUUID();
    const reply = await this.llm.askTool(this.requestMessages(), {
      tools: tools.specs(),
      toolChoice: this.toolChoice,
      signal,
      onDelta: (chunk) =>
        this.deps.emit({
          type: 'message',
          sessionId: this.deps.sessionId,
          agent: this.name,
          messageId,
          role: 'assistant',
          text: chunk,
          delta: true,
        }),
    });
    return this.recordReply(reply, messageId);
  }

  /** A server whose tools left the list (it is down) or came back: the model is told, so it neither waits nor guesses. */
  private noteMcpServerChanges(): void {
    const shown = new Map<string, string[]>();
    for (const tool of this.deps.tools())
      if (tool.server) shown.set(tool.server, [...(shown.get(tool.server) ?? []), tool.name]);
    const before = this.mcpServersShown;
    this.mcpServersShown = shown;
    if (!before) return;
    const notes: string[] = [];
    for (const [server, names] of before) {
      if (shown.has(server)) continue;
      this.mcpServersDown.add(server);
      notes.push(
        `MCP server "${server}" is not available now: its tools (${names.join(', ')}) were removed until it reconnects.`,
      );
    }
    for (const [server, names] of shown) {
      if (before.has(server)) continue;
      const again = this.mcpServersDown.delete(server) ? ' again' : '';
      notes.push(`MCP server "${server}" is connected${again}: its tools (${names.join(', ')}) are available.`);
    }
    if (notes.length) this.memory.add({ role: 'user', content: notes.join('\n') });
  }

  private recordReply(reply: LlmReply, messageId: string): boolean {
    const text = reply.text.trim();
    if (text) {
      this.lastAnswer = text;
      this.lastAnswerMessageId = messageId;
      this.deps.emit({
        type: 'message',
        sessionId: this.deps.sessionId,
        agent: this.name,
        messageId,
        role: 'assistant',
        text,
        delta: false,
      });
    }
    this.pendingCalls = this.toolChoice === 'none' ? [] : reply.toolCalls;
    this.memory.add({
      role: 'assistant',
      content: text || null,
      ...(this.pendingCalls.length ? { toolCalls: this.pendingCalls } : {}),
    });
    if (this.pendingCalls.length > 0) return true;
    if (this.toolChoice === 'required') {
      this.memory.add({ role: 'user', content: 'You must call one of the tools now.' });
      return false;
    }
    // a plain answer without tool calls ends the run: the model has said what it has to say
    this.finish('success', text || 'The agent ended without an answer.');
    return false;
  }

  protected async act(signal: AbortSignal): Promise<string> {
    const calls = this.pendingCalls;
    this.usedBrowser = calls.some((call) => call.name === BROWSER_TOOL_NAME);
    const tools = this.toolCollection();
    let outcomes: ToolCallOutcome[];
    try {
      outcomes = await Promise.all(
        calls.map((call) =>
          executeToolCall(call, {
            sessionId: this.deps.sessionId,
            workspace: this.deps.workspace,
            agent: this.name,
            tools,
            session: this.deps.session,
            emit: this.deps.emit,
            signal,
            gate: this.deps.gate ?? allowAllTools,
            maxObserve: this.deps.maxObserve ?? DEFAULT_MAX_OBSERVE,
            observeImages: this.observeImages(),
          }),
        ),
      );
    } catch (error) {
      this.answerUnansweredCalls('The call was cancelled before it finished.');
      throw error;
    }
    this.memory.add(
      ...outcomes.map((o): ChatMessage => ({
        role: 'tool',
        toolCallId: o.call.id,
        name: o.call.name,
        content: o.observation,
      })),
    );
    this.addImagesForModel(outcomes);
    for (const outcome of outcomes) this.handleSpecialTool(outcome);
    return outcomes.map((o) => `${o.call.name}: ${o.result.error ? 'error' : 'done'}`).join(', ');
  }

  /** Attached images go to a model that sees; for one that cannot, their descriptions join the request's text. */
  protected override async requestMessage(request: string, images: Image[], signal: AbortSignal): Promise<ChatMessage> {
    const described = images.length ? await this.observeImages()(images, "the person's message", signal) : '';
    if (!described) return super.requestMessage(request, images, signal);
    return { role: 'user', content: `${request}\n${described}` };
  }

  /** One observer per agent, so a session without a vision model is told once that images are left out. */
  private observeImages(): ImageObserver {
    this.imageObserver ??= createImageObserver({
      llm: this.llm,
      sight: this.deps.sight ?? noVisionModel(this.llm.model),
      sessionId: this.deps.sessionId,
      emit: this.deps.emit,
    });
    return this.imageObserver;
  }

  /** Tool messages carry text only; images go to vision models in a user message right after. */
  private addImagesForModel(outcomes: ToolCallOutcome[]): void {
    if (!this.llm.supportsVision) return;
    const images = outcomes.flatMap((o) => o.result.images ?? []);
    if (images.length === 0) return;
    this.memory.add({
      role: 'user',
      content: `Image(s) returned by ${outcomes
        .filter((o) => o.result.images?.length)
        .map((o) => o.call.name)
        .join(', ')}:`,
      images,
    });
  }

  private handleSpecialTool(outcome: ToolCallOutcome): void {
    if (!this.specialToolNames.has(outcome.call.name) || outcome.result.error) return;
    const status = parseStatus(outcome.call.arguments);
    this.finish(status === 'failure' ? 'failure' : 'success', this.lastAnswer || outcome.result.output || 'Done.');
  }

  /** After a cancel, every call the model made gets a result, so the memory stays valid for a follow-up. */
  answerUnansweredCalls(reason: string): void {
    const missing = this.memory.unansweredToolCalls();
    if (missing.length === 0) return;
    this.memory.add(
      ...missing.map((call): ChatMessage => ({
        role: 'tool',
        toolCallId: call.id,
        name: call.name,
        content: `Error: ${reason}`,
      })),
    );
  }
}

function parseStatus(rawArguments: string): string | undefined {
  try {
    return (JSON.parse(rawArguments) as { status?: string }).status;
  } catch {
    return undefined;
  }
}
