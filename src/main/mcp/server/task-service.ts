import type { CoreEvent, SessionStatus } from '../../../shared/events.js';
import type { TaskOutcome, TaskRunner } from './manus-mcp-server.js';

const PROGRESS_TEXT_LIMIT = 200;

/** The part of the SessionService that serving the agent to other programs (MCP `run_task`, A2A) relies on. */
export interface TaskService {
  start(request: { task: string; sessionId?: string }): {
    sessionId: string;
    done: Promise<{ sessionId: string; status: SessionStatus; result: string }>;
  };
  cancel(sessionId: string): Promise<void>;
  subscribe(listener: (event: CoreEvent) => void, sessionId?: string): () => void;
  isRunning(sessionId: string): boolean;
  /** answers a question the run asked (A2A: the client's reply to `input-required`); false when none waits */
  answer(sessionId: string, askId: string, answer: string): boolean;
}

/** `run_task` over the session service: a new session per task, cancelled when the caller gives up. */
export function taskRunnerFor(service: TaskService): TaskRunner {
  return async (task, { signal, onProgress, onPlan }): Promise<TaskOutcome> => {
    const { sessionId, done } = service.start({ task });
    const unsubscribe = service.subscribe((event) => {
      const line = progressLine(event);
      if (line) onProgress(line);
      if (event.type === 'plan') {
        const steps = event.plan.steps;
        onPlan?.(steps.filter((step) => step.status === 'completed').length, steps.length);
      }
    }, sessionId);
    const cancel = () => void service.cancel(sessionId);
    if (signal.aborted) cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      return await done;
    } finally {
      unsubscribe();
      signal.removeEventListener('abort', cancel);
    }
  };
}

/** A one-line account of what the agent is doing, for progress notifications and status updates. */
export function progressLine(event: CoreEvent): string | undefined {
  switch (event.type) {
    case 'tool':
      if (event.status === 'calling' && !event.progress) return `calling ${event.name}`;
      if (event.status === 'error') return `${event.name} failed: ${clip(event.error ?? '')}`;
      return undefined;
    case 'message':
      return event.role === 'assistant' && !event.delta && event.text.trim() ? clip(event.text) : undefined;
    case 'step':
      return event.action === 'started' ? `step ${event.stepIndex + 1}: ${clip(event.description)}` : undefined;
    case 'plan':
      return event.action === 'created' ? `plan: ${clip(event.plan.title)}` : undefined;
    case 'error':
      return `error: ${clip(event.message)}`;
    default:
      return undefined;
  }
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > PROGRESS_TEXT_LIMIT ? `${line.slice(0, PROGRESS_TEXT_LIMIT - 1)}…` : line;
}
