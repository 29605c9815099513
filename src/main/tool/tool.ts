import { z } from 'zod';
import type { CoreEventInput, Image } from '../../shared/events.js';
import type { ToolKind } from '../../shared/tool-kind.js';
import type { ToolResultData } from '../../shared/tool-result.js';
import type { SessionContext } from './session-context.js';
import type { ToolRisk } from './tool-gate.js';

/** What a tool hands back; failures are results the model can read, not exceptions. */
export interface ToolResult {
  output?: string;
  error?: string;
  images?: Image[];
  /** the structured result the tool's view renders (search hits, the browser's page) */
  data?: ToolResultData;
  /** a note for the agent loop, not for the model (e.g. "state was lost") */
  system?: string;
}

/** One call of a tool: who asked, how to report, how to stop, and the parts of the session (`Uses`) it may use. */
export interface ToolContext<Uses extends keyof SessionContext = keyof SessionContext> {
  sessionId: string;
  /** host path of the session workspace */
  workspace: string;
  /** the id of the model's tool call this execution answers */
  callId: string;
  /** the app's own id of this call (its `tool` events carry it), unique where the provider's callId may repeat */
  toolId: string;
  /** name of the agent calling the tool */
  agent: string;
  signal: AbortSignal;
  emit: (event: CoreEventInput) => void;
  session: Pick<SessionContext, Uses>;
}

export interface Tool<P extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  /** which view shows its calls */
  kind: ToolKind;
  parameters: P;
  /** JSON schema sent to the model when the schema comes from elsewhere (MCP); else derived from `parameters` */
  inputJsonSchema?: Record<string, unknown>;
  risk: ToolRisk;
  /** the risk of one call when it depends on the arguments (viewing a file vs writing it) */
  riskOf?: (args: z.infer<P>) => ToolRisk;
  execute(args: z.infer<P>, ctx: ToolContext): Promise<ToolResult>;
  /** the MCP server the tool comes from: when its tools leave or return, the model is told by server */
  server?: string;
}

export type AnyTool = Tool<z.ZodType>;

export function defineTool<P extends z.ZodType>(tool: Tool<P>): Tool<P> {
  return tool;
}

export function toolOutput(output: string, extra: Omit<ToolResult, 'output'> = {}): ToolResult {
  return { output, ...extra };
}

export function toolError(error: string, extra: Omit<ToolResult, 'error'> = {}): ToolResult {
  return { error, ...extra };
}

/** A running call's partial output or a step it is on, shown on its card while it works. */
export function emitToolProgress(ctx: ToolContext<never>, name: string, args: unknown, progress: string): void {
  ctx.emit({
    type: 'tool',
    sessionId: ctx.sessionId,
    callId: ctx.callId,
    toolId: ctx.toolId,
    agent: ctx.agent,
    name,
    args,
    status: 'calling',
    progress,
  });
}
