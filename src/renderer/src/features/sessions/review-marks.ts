import type { CoreEvent } from '../../../../shared/events.js';

export interface ReviewMark {
  /** how many events are shown at this mark (the mark's event included) */
  position: number;
  kind: 'user' | 'reply' | 'tool' | 'plan' | 'step' | 'ask' | 'error' | 'done';
  label: string;
  at: number;
}

/** The moments worth jumping to in a saved session: messages, finished tool calls, plan changes, questions, the end. */
export function reviewMarks(events: readonly CoreEvent[]): ReviewMark[] {
  const marks: ReviewMark[] = [];
  events.forEach((event, index) => {
    const position = index + 1;
    const mark = (kind: ReviewMark['kind'], label: string) => marks.push({ position, kind, label, at: event.ts });
    if (event.type === 'message' && !event.delta && event.role !== 'system') {
      mark(event.role === 'user' ? 'user' : 'reply', event.text.slice(0, 80));
    } else if (event.type === 'tool' && event.status !== 'calling') mark('tool', event.name);
    else if (event.type === 'plan') mark('plan', event.plan.title);
    else if (event.type === 'step') mark('step', `${event.stepIndex + 1}. ${event.description.slice(0, 70)}`);
    else if (event.type === 'ask' && event.status === 'waiting') mark('ask', event.question.slice(0, 80));
    else if (event.type === 'error') mark('error', event.message.slice(0, 80));
    else if (event.type === 'done') mark('done', event.status);
  });
  return marks;
}
