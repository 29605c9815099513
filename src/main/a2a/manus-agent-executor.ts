import { TaskState, type Task } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import type { CoreEvent, SessionStatus } from '../../shared/events.js';
import { progressLine, type TaskService } from '../mcp/server/task-service.js';
import type { SqliteTaskStore } from './sqlite-task-store.js';
import { agentMessage, status, taskTextOf, textPart } from './a2a-messages.js';

/** streamed reply text is sent as one status update per this many ms, not one per token */
const DELTA_FLUSH_MS = 250;
const RESULT_ARTIFACT_ID = 'result';

const FINAL_STATE: Record<SessionStatus, TaskState> = {
  finished: TaskState.TASK_STATE_COMPLETED,
  idle: TaskState.TASK_STATE_COMPLETED,
  cancelled: TaskState.TASK_STATE_CANCELED,
  failed: TaskState.TASK_STATE_FAILED,
  interrupted: TaskState.TASK_STATE_FAILED,
  running: TaskState.TASK_STATE_WORKING,
  waiting: TaskState.TASK_STATE_INPUT_REQUIRED,
};

interface Ids {
  taskId: string;
  contextId: string;
}

/**
 * Runs A2A tasks through the session service: one A2A context is one Manus session (follow-ups keep memory),
 * core events become `working` status updates, the final answer becomes the `result` artifact.
 */
export class ManusAgentExecutor implements AgentExecutor {
  /** A2A task id → the session running it */
  private readonly running = new Map<string, string>();
  /** A2A task id → the run's open questions, oldest first: the client's next message answers the first */
  private readonly openAsks = new Map<string, Extract<CoreEvent, { type: 'ask' }>[]>();
  /** A2A task id → its run, which a reply to `input-required` waits for */
  private readonly runs = new Map<string, Promise<void>>();
  private readonly cancelRequested = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly service: TaskService,
    private readonly tasks: SqliteTaskStore,
  ) {}

  execute = (request: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const earlier = this.runs.get(request.taskId);
    // a message to a task that is still running answers its question; this call lasts as long as the run, since the
    // SDK closes the task's event stream when an execute call returns on a non-final state
    if (earlier) return this.reply(request, bus).then(() => earlier);
    const run = this.run(request, bus).finally(() => {
      this.inFlight.delete(run);
      this.runs.delete(request.taskId);
    });
    this.inFlight.add(run);
    this.runs.set(request.taskId, run);
    return run;
  };

  /** The client's message to a running task: the answer to the oldest open question, if one is open. */
  private async reply(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const ids: Ids = { taskId: request.taskId, contextId: request.contextId };
    const sessionId = this.running.get(ids.taskId);
    const ask = this.openAsks.get(ids.taskId)?.[0];
    const text = taskTextOf(request.userMessage);
    if (sessionId && ask && this.service.answer(sessionId, ask.askId, text)) return;
    bus.publish(
      AgentEvent.statusUpdate({
        ...ids,
        status: status(
          TaskState.TASK_STATE_WORKING,
          agentMessage('The agent asked nothing: this message was not used. The task goes on.', ids),
        ),
        metadata: { sessionId },
      }),
    );
  }

  /** Cancels every running task and waits until each published its final status (server shutdown). */
  async cancelAll(): Promise<void> {
    await Promise.all([...this.running.values()].map((sessionId) => this.service.cancel(sessionId)));
    await Promise.all([...this.inFlight]);
  }

  private async run(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const ids: Ids = { taskId: request.taskId, contextId: request.contextId };
    const userMessage = request.userMessage;
    const task: Task = request.task ?? {
      id: ids.taskId,
      contextId: ids.contextId,
      status: status(TaskState.TASK_STATE_SUBMITTED),
      artifacts: [],
      history: [userMessage],
      metadata: {},
    };
    bus.publish(AgentEvent.task(task));
    const publishStatus = (state: TaskState, text?: string, metadata: Record<string, unknown> = {}) =>
      bus.publish(
        AgentEvent.statusUpdate({
          ...ids,
          status: status(state, text === undefined ? undefined : agentMessage(text, ids)),
          metadata,
        }),
      );

    const text = taskTextOf(userMessage);
    if (!text.trim()) {
      publishStatus(TaskState.TASK_STATE_REJECTED, 'The message has no text: say what the agent should do.');
      return;
    }
    if (this.cancelRequested.delete(ids.taskId)) {
      publishStatus(TaskState.TASK_STATE_CANCELED, 'Cancelled before it started.');
      return;
    }

    const { sessionId, done } = this.service.start({
      task: text,
      sessionId: this.tasks.sessionOfContext(ids.contextId),
    });
    this.tasks.rememberContext(ids.contextId, sessionId);
    this.running.set(ids.taskId, sessionId);
    publishStatus(TaskState.TASK_STATE_WORKING, undefined, { sessionId });
    const stopForwarding = this.forwardProgress(sessionId, (line, kind) =>
      publishStatus(TaskState.TASK_STATE_WORKING, line, { kind }),
    );
    const stopAsking = this.forwardQuestions(ids.taskId, sessionId, publishStatus);
    try {
      const outcome = await done;
      stopForwarding();
      stopAsking();
      const state = FINAL_STATE[outcome.status];
      if (state === TaskState.TASK_STATE_COMPLETED) {
        bus.publish(
          AgentEvent.artifactUpdate({
            ...ids,
            artifact: {
              artifactId: RESULT_ARTIFACT_ID,
              name: 'result',
              description: 'the final answer of the Manus agent',
              parts: [textPart(outcome.result)],
              metadata: undefined,
              extensions: [],
            },
            append: false,
            lastChunk: true,
            metadata: { sessionId },
          }),
        );
      }
      publishStatus(state, outcome.result || `The run ended: ${outcome.status}.`, { sessionId });
    } catch (error) {
      stopForwarding();
      stopAsking();
      publishStatus(TaskState.TASK_STATE_FAILED, `The run failed: ${(error as Error).message}`, { sessionId });
    } finally {
      this.running.delete(ids.taskId);
    }
  }

  /** Really stops the run; the run's own end then publishes the `canceled` status. */
  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const sessionId = this.running.get(taskId);
    if (sessionId) {
      await this.service.cancel(sessionId);
      return;
    }
    this.cancelRequested.add(taskId);
    const task = await this.tasks.load(taskId);
    if (task) {
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId: task.contextId,
          status: status(TaskState.TASK_STATE_CANCELED),
          metadata: {},
        }),
      );
    }
  };

  /**
   * The session's questions to the person become `input-required` (the question as the status message, its kind and
   * id as metadata), one at a time; the session `running` again after the last answer becomes `working`.
   */
  private forwardQuestions(
    taskId: string,
    sessionId: string,
    publish: (state: TaskState, text?: string, metadata?: Record<string, unknown>) => void,
  ): () => void {
    const open: Extract<CoreEvent, { type: 'ask' }>[] = [];
    this.openAsks.set(taskId, open);
    const requireInput = (ask: Extract<CoreEvent, { type: 'ask' }>) =>
      publish(TaskState.TASK_STATE_INPUT_REQUIRED, questionText(ask), { sessionId, askId: ask.askId, kind: ask.kind });
    const unsubscribe = this.service.subscribe((event: CoreEvent) => {
      if (event.type === 'ask') {
        if (event.status === 'waiting') {
          open.push(event);
          if (open.length === 1) requireInput(event);
          return;
        }
        const index = open.findIndex((ask) => ask.askId === event.askId);
        if (index >= 0) open.splice(index, 1);
        if (index === 0 && open[0]) requireInput(open[0]);
      } else if (event.type === 'session' && event.session.status === 'running' && event.action === 'status') {
        if (open.length === 0) publish(TaskState.TASK_STATE_WORKING, undefined, { sessionId });
      }
    }, sessionId);
    return () => {
      unsubscribe();
      this.openAsks.delete(taskId);
    };
  }

  /** Core events as one-line progress; streamed text is batched. Returns the unsubscribe (which flushes). */
  private forwardProgress(sessionId: string, send: (line: string, kind: 'delta' | 'progress') => void): () => void {
    let pending = '';
    let timer: NodeJS.Timeout | undefined;
    const flush = () => {
      clearTimeout(timer);
      timer = undefined;
      if (pending) send(pending, 'delta');
      pending = '';
    };
    const unsubscribe = this.service.subscribe((event: CoreEvent) => {
      if (event.type === 'message' && event.delta && event.role === 'assistant') {
        pending += event.text;
        timer ??= setTimeout(flush, DELTA_FLUSH_MS);
        return;
      }
      const line = progressLine(event);
      if (!line) return;
      flush();
      send(line, 'progress');
    }, sessionId);
    return () => {
      unsubscribe();
      flush();
    };
  }
}

/** What the client reads in `input-required`: the question, and for an approval how to reply. */
function questionText(ask: Extract<CoreEvent, { type: 'ask' }>): string {
  if (ask.kind !== 'approval') return ask.question;
  return `${ask.question} Reply "yes" to allow it once, "always" to allow it from now on, anything else to refuse.`;
}
