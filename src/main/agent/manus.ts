import { pickTools } from '../tool/builtin-tools.js';
import type { AnyTool } from '../tool/tool.js';
import { manusSystemPrompt, MANUS_NEXT_STEP_PROMPT } from './prompts/manus-prompt.js';
import { ToolCallAgent, type ToolCallAgentDeps } from './toolcall-agent.js';

export const MANUS_TOOL_NAMES = [
  'python_execute',
  'bash',
  'str_replace_editor',
  'read_document',
  'search_files',
  'browser_use',
  'web_search',
  'ask_human',
  'terminate',
] as const;
export const MANUS_MAX_STEPS = 20;

export interface ManusDeps extends Omit<ToolCallAgentDeps, 'tools'> {
  /** tools that come and go at run time (MCP servers) */
  extraTools?: () => AnyTool[];
  sandboxed: boolean;
}

/** The general agent: code, shell, files, browser, search, the person, and any MCP tool. */
export class Manus extends ToolCallAgent {
  readonly name = 'manus';
  readonly description =
    'A versatile agent that solves tasks with code, a shell, files, a browser, web search and MCP tools.';
  protected readonly systemPrompt: string;
  protected override readonly nextStepPrompt = MANUS_NEXT_STEP_PROMPT;

  constructor(deps: ManusDeps) {
    const ownTools = pickTools(MANUS_TOOL_NAMES);
    super({ maxSteps: MANUS_MAX_STEPS, ...deps, tools: () => [...ownTools, ...(deps.extraTools?.() ?? [])] });
    this.systemPrompt = manusSystemPrompt({
      workspace: deps.workspace,
      sandboxed: deps.sandboxed,
      today: new Date().toISOString().slice(0, 10),
    });
  }
}
