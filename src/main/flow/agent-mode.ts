import type { AgentOutcome } from '../agent/base-agent.js';
import type { ToolCallAgent } from '../agent/toolcall-agent.js';
import type { SessionStatus } from '../../shared/events.js';
import type { ModeRunner, RunContext } from './mode-runner.js';
import { imagesAmong } from './attached-images.js';
import { filesChangedSince } from './workspace-changes.js';
import { UPLOADS_FOLDER } from '../workspace/workspace-files.js';

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
  const startedAt = Date.now();
  const agent = run.createAgent(AGENT_MODE_AGENT, { maxSteps: run.request.maxSteps });
  if (run.resuming) agent.answerUnansweredCalls('The run was interrupted before this call finished.');
  const outcome = await agent.run(run.resuming ? undefined : run.request.task, {
    signal: run.signal,
    images: run.request.images,
  });
  showProducedImages(run, agent, startedAt);
  return { status: STATUS_BY_OUTCOME[outcome.outcome], result: outcome.text };
};

/** The charts and pictures the turn saved in the workspace join the agent's final answer, not only the files panel. */
function showProducedImages(run: RunContext, agent: ToolCallAgent, startedAt: number): void {
  const answer = agent.answer;
  if (!answer) return;
  // the person's own attachments land just before the turn starts: they are theirs, not what the agent made
  const produced = filesChangedSince(run.session.workspace, startedAt).filter(
    (path) => !path.startsWith(`${UPLOADS_FOLDER}/`),
  );
  const images = imagesAmong(produced, run.session.workspace);
  if (images.length === 0) return;
  // the same message again, whole, with the images: views and exports show them under its text
  run.emit({
    type: 'message',
    sessionId: run.session.id,
    agent: agent.name,
    messageId: answer.messageId,
    role: 'assistant',
    text: answer.text,
    delta: false,
    images,
  });
}
