import type { CoreEventInput } from '../../shared/events.js';
import { readStepReport } from '../../shared/step-report.js';

/** a streamed reply that shows one of these may be turning into the executor's JSON report: the rest is held back */
const REPORT_START = /[{`]/;

export interface StepRef {
  planId: string;
  stepIndex: number;
}

export interface StepMessages {
  /** what the step's agent emits through */
  emit: (event: CoreEventInput) => void;
  /** the id of the message that carried the executor's report, withheld until the step shows its result there */
  reportMessageId(): string | undefined;
}

/**
 * The messages of a step's executor: each is tagged with its step, and the executor's JSON report never reaches the
 * person: its streamed chunks stop where the JSON starts, and the whole message waits for the flow to show the
 * report's result (with its attachments) under the same id.
 */
export function stepMessages(emit: (event: CoreEventInput) => void, step: StepRef): StepMessages {
  const streamed = new Map<string, string>();
  const held = new Set<string>();
  let withheld: { id: string; result: string } | undefined;
  return {
    emit(event) {
      if (event.type !== 'message' || event.role !== 'assistant') return emit(event);
      const tagged = { ...event, step };
      const id = event.messageId;
      if (event.delta) {
        if (held.has(id)) return;
        const before = streamed.get(id) ?? '';
        const text = before + event.text;
        streamed.set(id, text);
        const start = text.search(REPORT_START);
        if (start < 0) return emit(tagged);
        held.add(id);
        const shown = event.text.slice(0, start - before.length);
        if (shown) emit({ ...tagged, text: shown });
        return;
      }
      streamed.delete(id);
      held.delete(id);
      const report = readStepReport(event.text);
      if (!report) return emit(tagged);
      // an earlier report the executor went on from is shown as its result right away
      if (withheld && withheld.id !== id) emit({ ...tagged, messageId: withheld.id, text: withheld.result });
      withheld = { id, result: report.result };
    },
    reportMessageId: () => withheld?.id,
  };
}
