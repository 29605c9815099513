import type { CoreEvent } from '../../../shared/events.js';
import { terminalJson } from './terminal-print.js';

/** NDJSON: exactly one event per line on stdout, in the event schema. */
export function createJsonPrinter(out: NodeJS.WritableStream = process.stdout): (event: CoreEvent) => void {
  return (event) => {
    out.write(`${terminalJson(event)}\n`);
  };
}
