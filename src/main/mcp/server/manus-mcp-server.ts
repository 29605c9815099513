import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  LoggingLevelSchema,
  SetLevelRequestSchema,
  type CallToolResult,
  type LoggingLevel,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import type { CoreEventInput } from '../../../shared/events.js';
import type { SessionContext } from '../../tool/session-context.js';
import type { AnyTool, ToolResult } from '../../tool/tool.js';

export const RUN_TASK_TOOL = 'run_task';
const SERVER_INFO = { name: 'manus-desktop', version: '0.1.0' };

export interface TaskOutcome {
  sessionId: string;
  status: string;
  result: string;
}

/** Runs the whole agent on a task; `onProgress` gets short lines while it works, `onPlan` the plan's progress. */
export type TaskRunner = (
  task: string,
  options: {
    signal: AbortSignal;
    onProgress: (line: string) => void;
    onPlan?: (completedSteps: number, totalSteps: number) => void;
  },
) => Promise<TaskOutcome>;

export interface ManusMcpServerOptions {
  /** the agent tools offered as they are (bash, python_execute, str_replace_editor, browser_use, web_search...) */
  tools: AnyTool[];
  /** offers `run_task` when given */
  runTask?: TaskRunner;
  /** the per-process session the tools run in (sandbox, browser, workspace) */
  session: SessionContext;
  /** where the tools' events go (they have no session view here; default: dropped) */
  emit?: (event: CoreEventInput) => void;
}

const RunTaskArgsSchema = z.object({
  task: z.string().min(1).describe('what the agent should do, in plain words'),
});

/** An MCP server (not yet connected to a transport) exposing Manus tools and `run_task`. */
export function createManusMcpServer(options: ManusMcpServerOptions): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, logging: {} },
    instructions: 'Manus Desktop tools. run_task hands a whole task to the Manus agent and returns its final answer.',
  });
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  // per server instance: a client's choice holds for its stdio connection or its HTTP session
  let logLevel: LoggingLevel = 'info';
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    logLevel = request.params.level;
    return {};
  });
  const logs = (level: LoggingLevel) => severity(level) >= severity(logLevel);

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...options.tools.map(describeTool), ...(options.runTask ? [runTaskDescription()] : [])],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    const progressToken = request.params._meta?.progressToken;
    const progress = new ProgressCount();
    const sendProgress = (update: { progress: number; total?: number; message: string } | undefined) => {
      if (progressToken === undefined || !update) return;
      void extra
        .sendNotification({ method: 'notifications/progress', params: { progressToken, ...update } })
        .catch(() => undefined);
    };
    const onProgress = (line: string) => sendProgress(progress.line(line));
    if (name === RUN_TASK_TOOL && options.runTask) {
      const parsed = RunTaskArgsSchema.safeParse(args);
      if (!parsed.success) return errorResult(`Invalid arguments for run_task: ${z.prettifyError(parsed.error)}`);
      // sent as part of the call, so a stateless HTTP client gets them on the call's own stream
      const log = (line: string) => {
        if (!logs('info')) return;
        void extra
          .sendNotification({
            method: 'notifications/message',
            params: { level: 'info', logger: RUN_TASK_TOOL, data: line },
          })
          .catch(() => undefined);
      };
      try {
        const outcome = await options.runTask(parsed.data.task, {
          signal: extra.signal,
          onProgress: (line) => {
            log(line);
            onProgress(line);
          },
          onPlan: (completed, total) => sendProgress(progress.plan(completed, total)),
        });
        const text = `${outcome.result}\n\n(session ${outcome.sessionId}, ${outcome.status})`;
        return { content: [{ type: 'text', text }], isError: outcome.status === 'failed' };
      } catch (error) {
        return errorResult(`run_task failed: ${(error as Error).message}`);
      }
    }
    const tool = byName.get(name);
    if (!tool) return errorResult(`Unknown tool "${name}".`);
    const parsed = tool.parameters.safeParse(args);
    if (!parsed.success) return errorResult(`Invalid arguments for ${name}: ${z.prettifyError(parsed.error)}`);
    const result = await tool.execute(parsed.data, {
      sessionId: options.session.sessionId,
      workspace: options.session.workspace,
      callId: randomUUID(),
      toolId: randomUUID(),
      agent: 'mcp-client',
      signal: extra.signal,
      emit: (event) => {
        if (event.type === 'tool' && event.progress) onProgress(event.progress);
        options.emit?.(event);
      },
      session: options.session,
    });
    return toCallToolResult(result);
  });

  return server;
}

function severity(level: LoggingLevel): number {
  return LoggingLevelSchema.options.indexOf(level);
}

/**
 * The numbers of a call's progress notifications, which must grow with each one: a line counts one until a plan
 * exists; from then on the plan's completed steps count, after the lines already sent, out of its step count
 * (so a plan's first notification comes with its first completed step).
 */
class ProgressCount {
  private sent = 0;
  private planOffset?: number;

  line(message: string): { progress: number; message: string } | undefined {
    if (this.planOffset !== undefined) return undefined;
    return { progress: ++this.sent, message };
  }

  plan(completed: number, total: number): { progress: number; total: number; message: string } | undefined {
    this.planOffset ??= this.sent;
    const progress = this.planOffset + completed;
    if (progress <= this.sent) return undefined;
    this.sent = progress;
    return { progress, total: this.planOffset + total, message: `${completed}/${total} plan steps done` };
  }
}

function describeTool(tool: AnyTool): McpTool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: (tool.inputJsonSchema ?? objectSchemaOf(tool.parameters)) as McpTool['inputSchema'],
    annotations: { readOnlyHint: tool.risk === 'read', openWorldHint: tool.risk === 'network' },
  };
}

function runTaskDescription(): McpTool {
  return {
    name: RUN_TASK_TOOL,
    description:
      'Run a whole task with the Manus agent (planning, code, shell, files, browser, web search) and return its final answer.',
    inputSchema: objectSchemaOf(RunTaskArgsSchema) as McpTool['inputSchema'],
    annotations: { readOnlyHint: false, openWorldHint: true },
  };
}

/** MCP requires an object schema at the top; the `$schema` key is dropped as clients do not need it. */
function objectSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return json.type === 'object' ? json : { type: 'object', properties: {} };
}

function toCallToolResult(result: ToolResult): CallToolResult {
  const content: CallToolResult['content'] = [];
  const text = result.error ?? result.output;
  if (text) content.push({ type: 'text', text });
  for (const image of result.images ?? []) content.push({ type: 'image', data: image.data, mimeType: image.mimeType });
  if (content.length === 0) content.push({ type: 'text', text: '(no output)' });
  return { content, isError: result.error !== undefined };
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
