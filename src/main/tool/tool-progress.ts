import { emitToolProgress, type ToolContext } from './tool.js';

/** progress events are batched so a chatty loop does not flood the event log */
const PROGRESS_INTERVAL_MS = 500;

export interface ToolProgress {
  push(text: string, immediately?: boolean): void;
  /** the call is over: what was not sent yet is in its result, so it is dropped */
  stop(): void;
}

/** Streams a running call's partial output as `tool` events with status `calling`; a quick call sends none. */
export function toolProgress(ctx: ToolContext<never>, name: string, args: unknown): ToolProgress {
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (!pending) return;
    const progress = pending;
    pending = '';
    emitToolProgress(ctx, name, args, progress);
  };
  return {
    push(text, immediately = false) {
      if (!text) return;
      pending += text;
      if (immediately) flush();
      else timer ??= setTimeout(flush, PROGRESS_INTERVAL_MS);
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
      pending = '';
    },
  };
}
