import type { AgentOutcome } from '../agent/base-agent.js';
import type { SessionStatus } from '../../shared/events.js';
import type { ModeRunner } from './mode-runner.js';

const STATUS_BY_OUTCOME: Record<AgentOutcome, SessionStatus> = {
  success: 'finished',
  failure: 'failed',
  max_steps: 'failed',
  stuck: 'failed',
};

/** the one agent the agent mode runs */
export const AGENT_MODE_AGENT = 'manus';

/** Single-agent mode: the Manus agent's think/act loop over the session's memory. */
export const runAgentMode: ModeRunner = async (run) => {
  const agent = run.createAgent(AGENT_MODE_AGENT, { maxSteps: run.request.maxSteps });
  if (run.resuming) agent.answerUnansweredCalls('The run was interrupted before this call finished.');
  const outcome = await agent.run(run.resuming ? undefined : run.request.task, {
    signal: run.signal,
    images: run.request.images,
  });
  return { status: STATUS_BY_OUTCOME[outcome.outcome], result: outcome.text };
};
