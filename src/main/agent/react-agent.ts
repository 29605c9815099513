import { BaseAgent } from './base-agent.js';

/** think → act: `think` decides whether there is something to do; `act` does it. */
export abstract class ReActAgent extends BaseAgent {
  protected abstract think(signal: AbortSignal): Promise<boolean>;
  protected abstract act(signal: AbortSignal): Promise<string>;

  protected async step(signal: AbortSignal): Promise<string> {
    this.setState('RUNNING', 'thinking');
    const shouldAct = await this.think(signal);
    if (!shouldAct) return 'Thinking complete - no action needed';
    this.setState('RUNNING', 'acting');
    return this.act(signal);
  }
}
