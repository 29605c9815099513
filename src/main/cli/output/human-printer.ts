import type { CoreEvent } from '../../../shared/events.js';
import { Spinner } from './spinner.js';
import { terminalText, wantsColor } from './terminal-text.js';

const PREVIEW_CHARS = 600;

interface Streams {
  out: NodeJS.WriteStream;
  err: NodeJS.WriteStream;
}

/**
 * Prints a run for a person: streamed text, tool calls with their results, notices, a spinner while waiting.
 * Every text that came from the model, a tool or a page goes through `terminalText` (see there why).
 */
export function createHumanPrinter(
  streams: Streams = { out: process.stdout, err: process.stderr },
): (event: CoreEvent) => void {
  const spinner = new Spinner(streams.err);
  const color = painter(streams.out);
  const errColor = painter(streams.err);
  let streaming = false;
  const endStream = () => {
    if (streaming) streams.out.write('\n');
    streaming = false;
  };

  return (event) => {
    switch (event.type) {
      case 'agent_state':
        if (event.phase === 'thinking')
          spinner.start(`${terminalText(event.agent)} is thinking (step ${event.step}/${event.maxSteps})`);
        else spinner.stop();
        break;
      case 'message':
        if (event.role !== 'assistant') break;
        spinner.stop();
        if (event.delta) {
          streams.out.write(terminalText(event.text));
          streaming = true;
        } else if (!streaming) {
          streams.out.write(`${terminalText(event.text)}\n`);
        } else endStream();
        break;
      case 'tool':
        spinner.stop();
        endStream();
        if (event.status === 'calling' && !event.progress) {
          streams.out.write(
            color(36, `⚙ ${terminalText(event.name)} ${preview(JSON.stringify(event.args), 200)}`) + '\n',
          );
        } else if (event.status === 'done') {
          const images = event.images?.length ? ` [${event.images.length} image(s)]` : '';
          streams.out.write(color(2, indent(preview(event.output ?? '', PREVIEW_CHARS)) + images) + '\n');
        } else if (event.status === 'error') {
          streams.out.write(color(31, indent(`✗ ${preview(event.error ?? '', PREVIEW_CHARS)}`)) + '\n');
        }
        break;
      case 'plan':
        // the step lines follow progress; the whole plan is worth printing when it is made and when it ends
        if (event.action === 'updated') break;
        endStream();
        streams.out.write(color(35, terminalText(event.plan.text)) + '\n');
        break;
      case 'step':
        endStream();
        streams.out.write(
          color(35, `▸ step ${event.stepIndex + 1} ${event.action}: ${terminalText(event.description)}`) + '\n',
        );
        break;
      case 'ask':
        spinner.stop();
        break;
      case 'notice':
        spinner.stop();
        streams.err.write(`${event.level === 'warning' ? '⚠' : 'ℹ'} ${terminalText(event.text)}\n`);
        break;
      case 'error':
        spinner.stop();
        endStream();
        streams.err.write(
          errColor(31, `Error: ${terminalText(event.message)}`) +
            (event.hint ? `\n  ${terminalText(event.hint)}` : '') +
            '\n',
        );
        break;
      case 'done':
        spinner.stop();
        endStream();
        break;
      default:
        break;
    }
  };
}

/** Our own colours for one stream, when it wants them. */
function painter(stream: NodeJS.WriteStream): (code: number, text: string) => string {
  const colored = wantsColor(stream);
  return (code, text) => (colored ? `\x1b[${code}m${text}\x1b[0m` : text);
}

/** A shortened, terminal-safe view of model or tool text. */
function preview(text: string, max: number): string {
  const safe = terminalText(text);
  return safe.length > max ? `${safe.slice(0, max)}…` : safe;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
