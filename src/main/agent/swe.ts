import { pickTools } from '../tool/builtin-tools.js';
import { SWE_NEXT_STEP_PROMPT, sweSystemPrompt } from './prompts/swe-prompt.js';
import { ToolCallAgent, type ToolCallAgentDeps } from './toolcall-agent.js';

export const SWE_TOOL_NAMES = ['bash', 'str_replace_editor', 'terminate'] as const;
export const SWE_MAX_STEPS = 20;

/** Writes and fixes code with a shell and a file editor. */
export class SweAgent extends ToolCallAgent {
  readonly name = 'swe';
  readonly description = 'A software engineer: reads, writes, runs and fixes code with a shell and a file editor.';
  protected readonly systemPrompt: string;
  protected override readonly nextStepPrompt = SWE_NEXT_STEP_PROMPT;

  constructor(deps: Omit<ToolCallAgentDeps, 'tools'> & { sandboxed: boolean }) {
    const tools = pickTools(SWE_TOOL_NAMES);
    super({ maxSteps: SWE_MAX_STEPS, ...deps, tools: () => tools });
    this.systemPrompt = sweSystemPrompt({ workspace: deps.workspace, sandboxed: deps.sandboxed });
  }
}
