import type { ChatMessage } from '../../shared/chat-message.js';
import { pickTools } from '../tool/builtin-tools.js';
import { BROWSER_NEXT_STEP_PROMPT, browserNextStepPrompt, browserSystemPrompt } from './prompts/browser-prompt.js';
import { readStepPage, type StepPage } from './browser-step-state.js';
import { ToolCallAgent, type ToolCallAgentDeps } from './toolcall-agent.js';

export const BROWSER_TOOL_NAMES = ['browser_use', 'terminate'] as const;
export const BROWSER_MAX_STEPS = 20;

/** Works on web pages with the browser tool only; every step starts from the page as it is now. */
export class BrowserAgent extends ToolCallAgent {
  readonly name = 'browser';
  readonly description = 'Browses the web: opens pages, searches, clicks, fills forms and extracts content.';
  protected readonly systemPrompt = browserSystemPrompt({ today: new Date().toISOString().slice(0, 10) });
  protected override readonly nextStepPrompt = BROWSER_NEXT_STEP_PROMPT;
  /** the page read for the step being thought about */
  private stepPage: StepPage | undefined;

  constructor(deps: Omit<ToolCallAgentDeps, 'tools'>) {
    const tools = pickTools(BROWSER_TOOL_NAMES);
    super({ maxSteps: BROWSER_MAX_STEPS, ...deps, tools: () => tools });
  }

  protected override async think(signal: AbortSignal): Promise<boolean> {
    this.stepPage = await readStepPage(this.deps.session.browser, { sees: this.llm.supportsVision, signal });
    try {
      return await super.think(signal);
    } finally {
      this.stepPage = undefined;
    }
  }

  /** The step prompt carries the browser state and, for a model that sees, the screenshot; neither is kept in memory. */
  protected override requestMessages(): ChatMessage[] {
    const messages = super.requestMessages();
    const stepPrompt = messages.at(-1);
    if (!this.stepPage || stepPrompt?.role !== 'user') return messages;
    const { state, screenshot } = this.stepPage;
    return [
      ...messages.slice(0, -1),
      {
        role: 'user',
        content: browserNextStepPrompt(state, stepPrompt.content ?? ''),
        ...(screenshot ? { images: [screenshot] } : {}),
      },
    ];
  }
}
