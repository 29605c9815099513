import type { CoreEvent, CoreEventOf, Image, SessionInfo } from '../../shared/events.js';
import { readStepReport } from '../../shared/step-report.js';
import { isLiveStatus } from '../../shared/session-vocabulary.js';
import { redactDeep, redactText } from './redact.js';
import type { SessionStore } from './store-api.js';
import { SessionNotFoundError } from './store-errors.js';

export const JSON_EXPORT_FORMAT = 'manus-desktop/session';
export const JSON_EXPORT_VERSION = 1;

export interface ExportOptions {
  /** secret values to blank out besides credential-shaped strings (e.g. the decrypted API keys of the settings) */
  secrets?: readonly string[];
}

type ToolEvent = CoreEventOf<'tool'>;
type MessageEvent = CoreEventOf<'message'>;

function loadSession(store: SessionStore, sessionId: string): { session: SessionInfo; events: CoreEvent[] } {
  const session = store.getSession(sessionId);
  if (!session) throw new SessionNotFoundError(sessionId);
  return { session, events: store.listEvents(sessionId) };
}

/** A fenced block whose fence is longer than any backtick run inside, so content cannot close it early. */
function fenced(content: string, language = ''): string {
  const longestRun = Math.max(2, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  return `${fence}${language}\n${content}\n${fence}`;
}

function formatJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'null';
}

function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

function imageLines(images: Image[] | undefined): string[] {
  return (images ?? []).map((image, index) =>
    image.path
      ? `![image ${index + 1}](${image.path})`
      : `_(image ${index + 1}: ${image.mimeType}, not saved in the workspace)_`,
  );
}

function metadataLines(session: SessionInfo): string[] {
  const { usage } = session;
  const cost = usage.cost === undefined ? '' : `, estimated cost $${usage.cost.toFixed(4)}`;
  return [
    `- Session: \`${session.id}\``,
    `- Status: ${session.status}`,
    `- Mode: ${session.mode}`,
    ...(session.agents ? [`- Agents: ${session.agents.join(', ')}`] : []),
    ...(session.parallel ? [`- Parallel steps: ${session.parallel}`] : []),
    `- Model: ${session.model}`,
    `- Workspace: \`${session.workspace}\``,
    `- Created: ${isoTime(session.createdAt)}`,
    `- Updated: ${isoTime(session.updatedAt)}`,
    `- Tokens: ${usage.promptTokens} prompt + ${usage.completionTokens} completion = ${usage.totalTokens}${cost}`,
  ];
}

function messageSection(
  role: MessageEvent['role'],
  agent: string | undefined,
  text: string,
  images?: Image[],
  attachments?: string[],
) {
  const who = role === 'user' ? 'User' : `Assistant${agent ? ` (${agent})` : ''}`;
  // a Plan-Act executor's JSON report stored by an older version reads as its result
  const shown = role === 'assistant' ? (readStepReport(text)?.result ?? text) : text;
  const attached = attachments?.length ? ['', `Attached: ${attachments.map((path) => `\`${path}\``).join(', ')}`] : [];
  return [`## ${who}`, '', shown, ...attached, ...imageLines(images)].join('\n');
}

/** `stopped`: the run ended (Stop, a crash) while the call ran, so no result will come (as the app shows it). */
function toolSection(call: ToolEvent, stopped: boolean): string {
  const timing = call.durationMs === undefined ? '' : `, ${Math.round(call.durationMs)} ms`;
  const status = call.status === 'calling' && stopped ? 'stopped' : call.status;
  const parts = [
    `### Tool \`${call.name}\` (${status}${timing})`,
    '',
    'Arguments:',
    fenced(formatJson(call.args), 'json'),
  ];
  if (call.output) parts.push('', 'Output:', fenced(call.output, 'text'));
  if (call.error) parts.push('', 'Error:', fenced(call.error, 'text'));
  const images = imageLines(call.images);
  if (images.length > 0) parts.push('', ...images);
  return parts.join('\n');
}

function eventSection(event: CoreEvent): string | undefined {
  switch (event.type) {
    case 'plan':
      return [`### Plan ${event.action}: ${event.plan.title}`, '', fenced(event.plan.text, 'text')].join('\n');
    case 'step': {
      const result = event.result ? `\n\n${event.result}` : '';
      return `### Step ${event.stepIndex + 1} ${event.action}: ${event.description}${result}`;
    }
    case 'ask':
      if (event.status !== 'answered') return undefined;
      return [
        `### ${event.kind === 'approval' ? 'Approval' : 'Question'}`,
        '',
        event.question,
        '',
        `**Answer:** ${event.answer ?? ''}`,
      ].join('\n');
    case 'notice':
      return event.level === 'warning' ? `> **Warning** (${event.code}): ${event.text}` : undefined;
    case 'error':
      return [`> **Error** \`${event.code}\`: ${event.message}`, ...(event.hint ? [`> Hint: ${event.hint}`] : [])].join(
        '\n',
      );
    case 'done':
      return [`## Result (${event.status})`, '', event.result].join('\n');
    default:
      return undefined;
  }
}

/** A call's own id; providers reuse theirs (call_0), and events stored before the app's id have only that one. */
function toolKey(event: ToolEvent): string {
  return event.toolId ?? event.callId;
}

/**
 * The session as a readable Markdown document: metadata, the conversation, tool calls with their arguments and
 * outputs, plan snapshots, errors and the final result. Images are linked by workspace path, never inlined.
 */
export function exportSessionMarkdown(store: SessionStore, sessionId: string, options: ExportOptions = {}): string {
  const { session, events } = loadSession(store, sessionId);
  // the last state of each tool call and each streamed message, rendered where it first appeared
  const finalCall = new Map<string, ToolEvent>();
  // a message sent whole again later (the final answer with the images the turn made) is written once, in full
  const wholeMessages = new Map<string, MessageEvent>();
  const streamedText = new Map<string, string>();
  for (const event of events) {
    if (event.type === 'tool' && event.progress === undefined) finalCall.set(toolKey(event), event);
    if (event.type === 'message' && !event.delta) {
      const earlier = wholeMessages.get(event.messageId);
      const images = [...(earlier?.images ?? []), ...(event.images ?? [])];
      wholeMessages.set(event.messageId, { ...event, images });
    }
    if (event.type === 'message' && event.delta) {
      streamedText.set(event.messageId, (streamedText.get(event.messageId) ?? '') + event.text);
    }
  }
  // a call still calling when its run ended stays so in the store: the run's end (or a session no longer live) ends it
  const lastRunEnd = events.findLast((event) => event.type === 'done')?.seq ?? 0;
  const endedAfter = (call: ToolEvent) => !isLiveStatus(session.status) || call.seq < lastRunEnd;
  const sections = [`# ${session.title || 'Untitled session'}`, metadataLines(session).join('\n')];
  const rendered = new Set<string>();
  for (const event of events) {
    if (event.type === 'message') {
      if (event.role === 'system' || rendered.has(event.messageId)) continue;
      const whole = wholeMessages.get(event.messageId);
      if (whole) {
        sections.push(messageSection(whole.role, whole.agent, whole.text, whole.images, whole.attachments));
        rendered.add(event.messageId);
      } else {
        const text = `${streamedText.get(event.messageId) ?? ''}\n\n_(reply cut off before it was complete)_`;
        sections.push(messageSection(event.role, event.agent, text));
        rendered.add(event.messageId);
      }
    } else if (event.type === 'tool') {
      const call = finalCall.get(toolKey(event));
      if (!call || rendered.has(toolKey(event))) continue;
      sections.push(toolSection(call, endedAfter(call)));
      rendered.add(toolKey(event));
    } else {
      const section = eventSection(event);
      if (section) sections.push(section);
    }
  }
  return redactText(sections.join('\n\n') + '\n', options.secrets);
}

/** The session and every event, as stored, in one JSON document (credentials blanked out). */
export function exportSessionJson(store: SessionStore, sessionId: string, options: ExportOptions = {}): string {
  const { session, events } = loadSession(store, sessionId);
  const document = {
    format: JSON_EXPORT_FORMAT,
    version: JSON_EXPORT_VERSION,
    exportedAt: new Date().toISOString(),
    session,
    events,
  };
  return JSON.stringify(redactDeep(document, options.secrets), null, 2) + '\n';
}
