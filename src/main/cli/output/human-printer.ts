import type { CoreEvent } from '../../../shared/events.js';
import { Spinner } from './spinner.js';

const PREVIEW_CHARS = 600;

interface Streams {
  out: NodeJS.WriteStream;
  err: NodeJS.WriteStream;
}

/** Prints a run for a person: streamed text, tool calls with their results, notices, a spinner while waiting. */
export function createHumanPrinter(
  streams: Streams = { out: process.stdout, err: process.stderr },
): (event: CoreEvent) => void {
  const spinner = new Spinner(streams.err);
  const color = (code: number, text: string) => (streams.out.isTTY ? `\x1b[${code}m${text}\x1b[0m` : text);
  let streaming = false;
  const endStream = () => {
    if (streaming) streams.out.write('\n');
    streaming = false;
  };

  return (event) => {
    switch (event.type) {
      case 'agent_state':
        if (event.phase === 'thinking')
          spinner.start(`${event.agent} is thinking (step ${event.step}/${event.maxSteps})`);
        else spinner.stop();
        break;
      case 'message':
        if (event.role !== 'assistant') break;
        spinner.stop();
        if (event.delta) {
          streams.out.write(event.text);
          streaming = true;
        } else if (!streaming) {
          streams.out.write(`${event.text}\n`);
        } else endStream();
        break;
      case 'tool':
        spinner.stop();
        endStream();
        if (event.status === 'calling' && !event.progress) {
          streams.out.write(color(36, `⚙ ${event.name} ${preview(JSON.stringify(event.args), 200)}`) + '\n');
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
        streams.out.write(color(35, event.plan.text) + '\n');
        break;
      case 'step':
        endStream();
        streams.out.write(color(35, `▸ step ${event.stepIndex + 1} ${event.action}: ${event.description}`) + '\n');
        break;
      case 'ask':
        spinner.stop();
        break;
      case 'notice':
        spinner.stop();
        streams.err.write(`${event.level === 'warning' ? '⚠' : 'ℹ'} ${event.text}\n`);
        break;
      case 'error':
        spinner.stop();
        endStream();
        streams.err.write(color(31, `Error: ${event.message}`) + (event.hint ? `\n  ${event.hint}` : '') + '\n');
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

function preview(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
