import { randomUUID } from 'node:crypto';
import type { ElicitationForm } from '../../shared/elicitation-form.js';
import type { CoreEventInput } from '../../shared/events.js';
import { noticeEvent, type NoticeArgs } from '../../shared/notice-codes.js';

export class NobodyToAskError extends Error {
  constructor() {
    super(
      'Nobody can answer questions in this session (no terminal, no window). Run it interactively or answer in the app.',
    );
    this.name = 'NobodyToAskError';
  }
}

interface PendingAsk {
  resolve: (answer: string) => void;
  reject: (error: Error) => void;
}

export interface AskRequest {
  kind: 'question' | 'approval' | 'elicitation';
  question: string;
  tool?: { callId: string; name: string; args: unknown };
  form?: ElicitationForm;
  signal: AbortSignal;
}

/**
 * Questions from the agent to the person: emitted as `ask` events and answered by whoever shows them
 * (a TTY prompt in the CLI, a dialog in the app) through `answer`.
 */
export class HumanChannel {
  private readonly pending = new Map<string, PendingAsk>();

  constructor(
    private readonly sessionId: string,
    private readonly emit: (event: CoreEventInput) => void,
    readonly available: boolean,
    /** told when the first question starts waiting and when the last one is answered or withdrawn */
    private readonly onWaitingChange?: (waiting: boolean) => void,
  ) {}

  ask(request: AskRequest): Promise<string> {
    if (!this.available) return Promise.reject(new NobodyToAskError());
    const askId = randomUUID();
    const base = {
      type: 'ask',
      sessionId: this.sessionId,
      askId,
      kind: request.kind,
      question: request.question,
      tool: request.tool,
      form: request.form,
    } as const;
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        const wasPending = this.pending.delete(askId);
        this.emit({ ...base, status: 'cancelled' });
        if (wasPending) this.settled();
        reject(request.signal.reason instanceof Error ? request.signal.reason : new Error('cancelled'));
      };
      if (request.signal.aborted) return onAbort();
      request.signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(askId, {
        resolve: (answer) => {
          request.signal.removeEventListener('abort', onAbort);
          this.emit({ ...base, status: 'answered', answer });
          this.settled();
          resolve(answer);
        },
        reject,
      });
      this.emit({ ...base, status: 'waiting' });
      if (this.pending.size === 1) this.onWaitingChange?.(true);
    });
  }

  /** Something the person should know without answering (a request declined for them, a model's answer). */
  tell(level: 'info' | 'warning', ...notice: NoticeArgs): void {
    this.emit(noticeEvent(this.sessionId, level, ...notice));
  }

  /** Returns false when no question with this id is waiting. */
  answer(askId: string, answer: string): boolean {
    const waiting = this.pending.get(askId);
    if (!waiting) return false;
    this.pending.delete(askId);
    waiting.resolve(answer);
    return true;
  }

  /** A question left the pending ones: when it was the last, nothing waits any more. */
  private settled(): void {
    if (this.pending.size === 0) this.onWaitingChange?.(false);
  }

  waitingIds(): string[] {
    return [...this.pending.keys()];
  }
}
