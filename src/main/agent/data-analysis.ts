import { pickTools } from '../tool/builtin-tools.js';
import { DATA_ANALYSIS_NEXT_STEP_PROMPT, dataAnalysisSystemPrompt } from './prompts/data-analysis-prompt.js';
import { ToolCallAgent, type ToolCallAgentDeps } from './toolcall-agent.js';

export const DATA_ANALYSIS_TOOL_NAMES = ['python_execute', 'str_replace_editor', 'read_document', 'terminate'] as const;
export const DATA_ANALYSIS_MAX_STEPS = 20;
/** tables and tracebacks are long; the model needs more of them than of other tools' output */
export const DATA_ANALYSIS_MAX_OBSERVE = 15_000;

/** Analyses data with pandas and matplotlib in the sandbox: charts saved in the workspace, and a written analysis. */
export class DataAnalysisAgent extends ToolCallAgent {
  readonly name = 'data_analysis';
  readonly description =
    'Analyses data (CSV, Excel, JSON) with Python, pandas and matplotlib: statistics, charts saved in the workspace, and a written analysis.';
  protected readonly systemPrompt: string;
  protected override readonly nextStepPrompt = DATA_ANALYSIS_NEXT_STEP_PROMPT;

  constructor(deps: Omit<ToolCallAgentDeps, 'tools'> & { sandboxed: boolean }) {
    const tools = pickTools(DATA_ANALYSIS_TOOL_NAMES);
    super({ maxSteps: DATA_ANALYSIS_MAX_STEPS, ...deps, tools: () => tools });
    this.systemPrompt = dataAnalysisSystemPrompt({ workspace: deps.workspace, sandboxed: deps.sandboxed });
  }
}
