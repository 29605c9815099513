import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { CoreEventInput } from '../../shared/events.js';
import type { ToolCall } from '../../shared/chat-message.js';
import type { ToolGate } from '../tool/tool-gate.js';
import type { SessionContext } from '../tool/session-context.js';
import type { ToolCollection } from '../tool/tool-collection.js';
import type { ToolResult } from '../tool/tool.js';
import { clipOutput } from '../sandbox/clip-output.js';
import { keepFullResult, MAX_STORED_RESULT_CHARS, storedText, withBoundedImages } from './result-bounds.js';
import { parseToolArguments, type ParsedToolArguments } from '../llm/tool-arguments.js';
import type { ImageObserver } from './image-observation.js';

export interface ToolCallOutcome {
  call: ToolCall;
  result: ToolResult;
  /** what the model reads as the tool message */
  observation: string;
}

export interface ExecuteCallOptions {
  sessionId: string;
  workspace: string;
  agent: string;
  tools: ToolCollection;
  session: SessionContext;
  emit: (event: CoreEventInput) => void;
  signal: AbortSignal;
  gate: ToolGate;
  maxObserve: number;
  /** text for the images of a result, for a model that cannot see them */
  observeImages?: ImageObserver;
}

/**
 * Runs one tool call the model asked for: unknown names, invalid JSON and schema violations come back
 * as readable errors for the model; the call is shown as `tool` events from calling to done/error.
 */
export async function executeToolCall(call: ToolCall, options: ExecuteCallOptions): Promise<ToolCallOutcome> {
  const { emit, sessionId, agent } = options;
  const started = performance.now();
  // the provider's call.id answers the model; the app's own id keys the call everywhere it is shown
  const toolId = randomUUID();
  const parsed = parseToolArguments(call.arguments);
  // a name the model made up has no tool behind it: its error shows in the generic view
  const kind = options.tools.get(call.name)?.kind ?? 'generic';
  emit({
    type: 'tool',
    sessionId,
    agent,
    callId: call.id,
    toolId,
    name: call.name,
    kind,
    args: parsed.ok ? parsed.value : storedText(call.arguments),
    status: 'calling',
  });
  const result = withFullResultKept(withBoundedImages(await runCall(call, toolId, parsed, options)), toolId, options);
  const durationMs = Math.round(performance.now() - started);
  emit({
    type: 'tool',
    sessionId,
    agent,
    callId: call.id,
    toolId,
    name: call.name,
    kind,
    args: parsed.ok ? parsed.value : storedText(call.arguments),
    status: result.error ? 'error' : 'done',
    output: storedText(result.output),
    error: storedText(result.error),
    images: result.images?.length ? result.images : undefined,
    data: result.data,
    durationMs,
  });
  const imageText = result.images?.length
    ? await options.observeImages?.(result.images, call.name, options.signal)
    : undefined;
  const observation = observationOf(call.name, result, options.maxObserve);
  return { call, result, observation: imageText ? `${observation}\n${imageText}` : observation };
}

/** A result too long to store whole, with a note of where it is kept whole when the person asked for that. */
function withFullResultKept(result: ToolResult, toolId: string, options: ExecuteCallOptions): ToolResult {
  const settings = options.session.settings();
  const output = result.output;
  if (!settings.agent.keepFullResults || output === undefined || output.length <= MAX_STORED_RESULT_CHARS)
    return result;
  const note = keepFullResult(output, {
    workspace: options.workspace,
    toolId,
    quotaMb: settings.sandbox.workspaceQuotaMb,
  });
  // the note leads, so every clipped view of the output keeps it
  return { ...result, output: `${note}\n${output}` };
}

async function runCall(
  call: ToolCall,
  toolId: string,
  parsed: ParsedToolArguments,
  options: ExecuteCallOptions,
): Promise<ToolResult> {
  const tool = options.tools.get(call.name);
  if (!tool) {
    return { error: `Unknown tool "${call.name}". Available tools: ${options.tools.names().join(', ')}.` };
  }
  if (!parsed.ok) {
    return {
      error: `The arguments of ${call.name} cannot be read (${parsed.error}). Send them as one JSON object.`,
    };
  }
  const validated = tool.parameters.safeParse(parsed.value);
  if (!validated.success) {
    return { error: `Invalid arguments for ${call.name}:\n${z.prettifyError(validated.error)}` };
  }
  const decision = await options.gate({ callId: call.id, tool, args: validated.data, signal: options.signal });
  if (!decision.allowed) return { error: `The user did not allow this call: ${decision.reason}` };
  try {
    return await tool.execute(validated.data, {
      sessionId: options.sessionId,
      workspace: options.workspace,
      callId: call.id,
      toolId,
      agent: options.agent,
      signal: options.signal,
      emit: options.emit,
      session: options.session,
    });
  } catch (error) {
    if (options.signal.aborted) throw error;
    return { error: `${call.name} failed: ${(error as Error).message}` };
  }
}

function observationOf(name: string, result: ToolResult, maxObserve: number): string {
  const parts: string[] = [];
  if (result.output) parts.push(clipOutput(result.output, maxObserve));
  // the error comes after the clipped output, so a long output never hides it
  if (result.error) parts.push(`Error: ${clipOutput(result.error, maxObserve)}`);
  if (result.images?.length)
    parts.push(
      `[${result.images.length} image(s) attached${result.images.map((i) => (i.path ? ` ${i.path}` : '')).join(',')}]`,
    );
  return parts.join('\n') || `${name} finished with no output.`;
}
