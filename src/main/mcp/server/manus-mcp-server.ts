import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import type { CoreEventInput } from '../../../shared/events.js';
import type { SessionResources } from '../../session/resources.js';
import type { AnyTool, ToolResult } from '../../tool/tool.js';

export const RUN_TASK_TOOL = 'run_task';
const SERVER_INFO = { name: 'manus-desktop', version: '0.1.0' };

export interface TaskOutcome {
  sessionId: string;
  status: string;
  result: string;
}

/** Runs the whole agent on a task; `onProgress` gets short lines while it works. */
export type TaskRunner = (
  task: string,
  options: { signal: AbortSignal; onProgress: (line: string) => void },
) => Promise<TaskOutcome>;

export interface ManusMcpServerOptions {
  /** the agent tools offered as they are (bash, python_execute, str_replace_editor, browser_use, web_search...) */
  tools: AnyTool[];
  /** offers `run_task` when given */
  runTask?: TaskRunner;
  /** the per-process session the tools run in (sandbox, browser, workspace) */
  resources: SessionResources;
  /** where the tools' events go (they have no session view here; default: dropped) */
  emit?: (event: CoreEventInput) => void;
}

const RunTaskArgsSchema = z.object({
  task: z.string().min(1).describe('what the agent should do, in plain words'),
});

/** An MCP server (not yet connected to a transport) exposing Manus tools and `run_task`. */
export function createManusMcpServer(options: ManusMcpServerOptions): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: 'Manus Desktop tools. run_task hands a whole task to the Manus agent and returns its final answer.',
  });
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...options.tools.map(describeTool), ...(options.runTask ? [runTaskDescription()] : [])],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    const progressToken = request.params._meta?.progressToken;
    let progressCount = 0;
    const onProgress = (line: string) => {
      if (progressToken === undefined) return;
      void extra
        .sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress: ++progressCount, message: line },
        })
        .catch(() => undefined);
    };
    if (name === RUN_TASK_TOOL && options.runTask) {
      const parsed = RunTaskArgsSchema.safeParse(args);
      if (!parsed.success) return errorResult(`Invalid arguments for run_task: ${z.prettifyError(parsed.error)}`);
      try {
        const outcome = await options.runTask(parsed.data.task, { signal: extra.signal, onProgress });
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
      sessionId: options.resources.sessionId,
      workspace: options.resources.workspace,
      callId: randomUUID(),
      agent: 'mcp-client',
      signal: extra.signal,
      emit: (event) => {
        if (event.type === 'tool' && event.progress) onProgress(event.progress);
        options.emit?.(event);
      },
      resources: options.resources,
    });
    return toCallToolResult(result);
  });

  return server;
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
