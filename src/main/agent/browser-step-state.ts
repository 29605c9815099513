import type { Image } from '../../shared/events.js';
import type { BrowserSession } from '../browser/browser-session.js';
import { browserStateOf } from '../browser/page-report.js';
import type { SessionPart } from '../tool/session-context.js';
import { RunCancelledError } from './errors.js';
import type { BrowserStepState } from './prompts/browser-prompt.js';

/** Reading the page for a step prompt gives up after this long (a page that never settles, a hung screenshot). */
export const STEP_STATE_TIMEOUT_MS = 15_000;

export interface StepPage {
  state: BrowserStepState;
  /** the page's screenshot, for a model that sees */
  screenshot?: Image;
}

/**
 * The session browser's page at the start of a step: its state as text and, for a model that sees, its screenshot.
 * Never throws for the page's sake (a failure becomes an `unreadable` state); throws only when the run is cancelled.
 */
export async function readStepPage(
  browser: SessionPart<BrowserSession>,
  options: { sees: boolean; signal: AbortSignal; timeoutMs?: number },
): Promise<StepPage> {
  if (options.signal.aborted) throw new RunCancelledError();
  const timeoutMs = options.timeoutMs ?? STEP_STATE_TIMEOUT_MS;
  const gaveUp = AbortSignal.timeout(timeoutMs);
  const stopped = AbortSignal.any([options.signal, gaveUp]);
  let abandon: () => void = () => undefined;
  const stop = new Promise<never>((_, reject) => {
    abandon = () => reject(stopped.reason);
    stopped.addEventListener('abort', abandon, { once: true });
  });
  try {
    const report = await Promise.race([browserStateOf(browser), stop]);
    if (!report) return { state: { kind: 'closed' } };
    const screenshot = options.sees ? report.images[0] : undefined;
    return { state: { kind: 'page', text: report.text, withScreenshot: Boolean(screenshot) }, screenshot };
  } catch (error) {
    if (options.signal.aborted) throw new RunCancelledError();
    const reason = gaveUp.aborted ? `no answer from the page within ${timeoutMs / 1000} s` : (error as Error).message;
    return { state: { kind: 'unreadable', reason } };
  } finally {
    stopped.removeEventListener('abort', abandon);
  }
}
