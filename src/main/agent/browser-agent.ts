import { pickTools } from '../tool/builtin-tools.js';
import { BROWSER_NEXT_STEP_PROMPT, browserSystemPrompt } from './prompts/browser-prompt.js';
import { ToolCallAgent, type ToolCallAgentDeps } from './toolcall-agent.js';

export const BROWSER_TOOL_NAMES = ['browser_use', 'terminate'] as const;
export const BROWSER_MAX_STEPS = 20;

/** Works on web pages with the browser tool only; every step starts from the page as it is now (its state and screenshot). */
export class BrowserAgent extends ToolCallAgent {
  readonly name = 'browser';
  readonly description = 'Browses the web: opens pages, searches, clicks, fills forms and extracts content.';
  protected readonly systemPrompt = browserSystemPrompt({ today: new Date().toISOString().slice(0, 10) });
  protected override readonly nextStepPrompt = BROWSER_NEXT_STEP_PROMPT;
  protected override readonly pageStateEveryStep = true;

  constructor(deps: Omit<ToolCallAgentDeps, 'tools'>) {
    const tools = pickTools(BROWSER_TOOL_NAMES);
    super({ maxSteps: BROWSER_MAX_STEPS, ...deps, tools: () => tools });
  }
}
