import type { CoreEvent, SessionInfo } from '../../shared/events.js';
import type { ExportedSession } from '../../shared/contract.js';

const FENCE = '```';
const MAX_TOOL_OUTPUT_IN_MARKDOWN = 4000;

function fileStem(session: SessionInfo): string {
  const slug = session.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  return slug || session.id;
}

function fenced(text: string, language = ''): string {
  // a fence longer than any backtick run inside keeps the block closed
  const longestRun = Math.max(2, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  const fence = '`'.repeat(Math.max(FENCE.length, longestRun + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

function clip(text: string): string {
  return text.length > MAX_TOOL_OUTPUT_IN_MARKDOWN
    ? `${text.slice(0, MAX_TOOL_OUTPUT_IN_MARKDOWN)}\n… (${text.length - MAX_TOOL_OUTPUT_IN_MARKDOWN} more characters)`
    : text;
}

/** A readable transcript: messages joined from their deltas, tool calls with args and results, plan and outcome. */
export function sessionToMarkdown(session: SessionInfo, events: CoreEvent[]): string {
  const lines: string[] = [`# ${session.title}`, '', `- Mode: ${session.mode}`, `- Model: ${session.model}`];
  lines.push(`- Status: ${session.status}`, `- Created: ${new Date(session.createdAt).toISOString()}`, '');
  const messageText = new Map<string, { role: string; agent?: string; text: string }>();
  const order: Array<{ kind: 'message'; id: string } | { kind: 'line'; text: string }> = [];
  for (const event of events) {
    switch (event.type) {
      case 'message': {
        const existing = messageText.get(event.messageId);
        if (!existing) {
          messageText.set(event.messageId, { role: event.role, agent: event.agent, text: event.text });
          order.push({ kind: 'message', id: event.messageId });
        } else {
          existing.text = event.delta ? existing.text + event.text : event.text;
        }
        break;
      }
      case 'tool':
        if (event.status === 'calling' && !event.progress) {
          order.push({ kind: 'line', text: `**Tool \`${event.name}\`**\n\n${fenced(JSON.stringify(event.args, null, 2), 'json')}` });
        } else if (event.status !== 'calling') {
          const body = event.status === 'error' ? `Error: ${event.error ?? ''}` : (event.output ?? '');
          order.push({ kind: 'line', text: `Result of \`${event.name}\`:\n\n${fenced(clip(body))}` });
        }
        break;
      case 'plan':
        if (event.action !== 'updated') order.push({ kind: 'line', text: `**Plan (${event.action})**\n\n${fenced(event.plan.text)}` });
        break;
      case 'ask':
        order.push({
          kind: 'line',
          text: event.status === 'answered' ? `> Answer: ${event.answer ?? ''}` : `> Question: ${event.question}`,
        });
        break;
      case 'error':
        order.push({ kind: 'line', text: `> **Error (${event.code})**: ${event.message}${event.hint ? ` — ${event.hint}` : ''}` });
        break;
      case 'done':
        order.push({ kind: 'line', text: `---\n\n**Finished: ${event.status}**\n\n${event.result}` });
        break;
      default:
        break;
    }
  }
  for (const entry of order) {
    if (entry.kind === 'line') {
      lines.push(entry.text, '');
      continue;
    }
    const message = messageText.get(entry.id);
    if (!message) continue;
    const who = message.role === 'user' ? 'User' : message.agent ? `Assistant (${message.agent})` : 'Assistant';
    lines.push(`## ${who}`, '', message.text, '');
  }
  return lines.join('\n');
}

export function exportSession(session: SessionInfo, events: CoreEvent[], format: 'md' | 'json'): ExportedSession {
  if (format === 'json') {
    return {
      filename: `${fileStem(session)}.json`,
      mimeType: 'application/json',
      content: JSON.stringify({ session, events }, null, 2),
    };
  }
  return { filename: `${fileStem(session)}.md`, mimeType: 'text/markdown', content: sessionToMarkdown(session, events) };
}
