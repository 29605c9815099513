import type { ChatMessage } from '../../shared/chat-message.js';
import type { TokenCounter } from './tokens.js';

/** Units at the end of the conversation that are shortened only as a last resort. */
const DEFAULT_KEEP_RECENT_UNITS = 4;
/** An old tool output is cut down to about this many tokens. */
const SHORTENED_OUTPUT_TOKENS = 400;

export interface FitOptions {
  /** tokens the messages may take (context window minus completion and tool schemas) */
  budget: number;
  counter: TokenCounter;
  keepRecentUnits?: number;
}

export interface FitResult {
  messages: ChatMessage[];
  tokens: number;
  fits: boolean;
  shortenedOutputs: number;
  droppedMessages: number;
  /** tokens of the leading system prompt and the task (first user message), which are never cut or dropped */
  fixedTokens: number;
}

/** Messages that must travel together: an assistant turn with tool calls and the results answering them. */
interface Unit {
  messages: ChatMessage[];
  tokens: number;
}

/** Keep the first and last parts of a text, with a note saying how much was cut between them. */
export function shortenText(text: string, targetTokens: number, counter: TokenCounter, knownTokens?: number): string {
  const tokens = knownTokens ?? counter.text(text);
  if (tokens <= targetTokens) return text;
  const charsPerToken = text.length / Math.max(1, tokens);
  const keepChars = Math.max(0, Math.floor(targetTokens * charsPerToken * 0.9));
  const head = text.slice(0, Math.ceil(keepChars * 0.6));
  const tail = keepChars - head.length > 0 ? text.slice(text.length - (keepChars - head.length)) : '';
  const cut = text.length - head.length - tail.length;
  return `${head}\n\n[... ${cut} characters cut here to fit the model's context window ...]\n\n${tail}`;
}

/** Shortened copies of old tool outputs, reused on every later request so they are cut (and counted) once. */
const shortenedCopies = new WeakMap<ChatMessage, { content: string | null; copy: ChatMessage }>();

function shortenedOutput(message: ChatMessage, targetTokens: number, counter: TokenCounter): ChatMessage {
  const known = shortenedCopies.get(message);
  if (known && known.content === message.content) return known.copy;
  const copy = {
    ...message,
    content: shortenText(message.content ?? '', targetTokens, counter, counter.message(message)),
  };
  shortenedCopies.set(message, { content: message.content, copy });
  return copy;
}

function groupUnits(messages: ChatMessage[], counter: TokenCounter): Unit[] {
  const units: Unit[] = [];
  for (let at = 0; at < messages.length;) {
    const first = messages[at];
    const group = [first];
    at++;
    if (first.role === 'assistant' && first.toolCalls?.length) {
      while (at < messages.length && messages[at].role === 'tool') group.push(messages[at++]);
    }
    units.push({ messages: group, tokens: group.reduce((sum, message) => sum + counter.message(message), 0) });
  }
  return units;
}

function recount(unit: Unit, counter: TokenCounter): number {
  const before = unit.tokens;
  unit.tokens = unit.messages.reduce((sum, message) => sum + counter.message(message), 0);
  return before - unit.tokens;
}

/** Replace long tool outputs (and images) of a unit by shortened copies; returns how many outputs were cut. */
function shortenUnit(unit: Unit, targetTokens: number, counter: TokenCounter): number {
  let shortened = 0;
  unit.messages = unit.messages.map((message) => {
    let next = message;
    // the memoised message count bounds the content's, so long outputs are found without tokenizing again
    if (message.role === 'tool' && message.content && counter.message(message) > targetTokens) {
      next = shortenedOutput(message, targetTokens, counter);
      if (next.content !== message.content) shortened++;
    }
    if (next.images?.length) {
      const note = `[${next.images.length} image(s) left out to fit the context window]`;
      next = { ...next, images: undefined, content: next.content ? `${next.content}\n${note}` : note };
    }
    return next;
  });
  return shortened;
}

/** Cut the model's and the tools' texts of a unit so it takes about `targetTokens`; returns how many were cut. */
function squeezeUnit(unit: Unit, targetTokens: number, counter: TokenCounter): number {
  const perMessage = Math.max(32, Math.floor(targetTokens / unit.messages.length));
  let squeezed = 0;
  unit.messages = unit.messages.map((message) => {
    // what the person wrote is never cut: a conversation that cannot fit it fails with a clear error instead
    if (message.role === 'user' || !message.content || counter.text(message.content) <= perMessage) return message;
    squeezed++;
    return { ...message, images: undefined, content: shortenText(message.content, perMessage, counter) };
  });
  return squeezed;
}

function omissionNote(dropped: number): string {
  return `\n\n(${dropped} earlier messages of this conversation were left out to fit the model's context window.)`;
}

/**
 * Fit a conversation into `budget` tokens: shorten the oldest tool outputs first, then drop the oldest turns,
 * then squeeze what is left. The leading system prompt, the task (first user message) and the recent turns are
 * kept, and no user message is ever cut; an assistant turn with tool calls is never separated from its tool results.
 * A conversation that cannot fit that way comes back with `fits: false`.
 */
export function fitContext(messages: readonly ChatMessage[], options: FitOptions): FitResult {
  const { counter, budget } = options;
  const keepRecent = options.keepRecentUnits ?? DEFAULT_KEEP_RECENT_UNITS;
  const initial = counter.messages(messages);
  const leadingSystem = messages.findIndex((message) => message.role !== 'system');
  const systemCount = leadingSystem === -1 ? messages.length : leadingSystem;
  let system = messages.slice(0, systemCount);
  const taskMessage = messages.slice(systemCount).find((message) => message.role === 'user');
  const fixedTokens = [...system, ...(taskMessage ? [taskMessage] : [])].reduce(
    (sum, message) => sum + counter.message(message),
    0,
  );
  if (initial <= budget) {
    return {
      messages: [...messages],
      tokens: initial,
      fits: true,
      shortenedOutputs: 0,
      droppedMessages: 0,
      fixedTokens,
    };
  }

  const units = groupUnits(messages.slice(systemCount), counter);
  let total = initial;
  let shortenedOutputs = 0;
  let droppedMessages = 0;
  const fits = () => total <= budget;
  const protectedFrom = () => Math.max(0, units.length - keepRecent);

  // 1. shorten the oldest tool outputs (and drop old images), oldest first
  for (let index = 0; index < protectedFrom() && !fits(); index++) {
    shortenedOutputs += shortenUnit(units[index], SHORTENED_OUTPUT_TOKENS, counter);
    total -= recount(units[index], counter);
  }

  // 2. drop the oldest turns, keeping the task
  const noteAllowance = counter.text(omissionNote(messages.length));
  const drop = (index: number) => {
    const [removed] = units.splice(index, 1);
    total -= removed.tokens;
    if (droppedMessages === 0) total += noteAllowance;
    droppedMessages += removed.messages.length;
  };
  const task = units.find((unit) => unit.messages[0].role === 'user');
  for (let index = 0; index < protectedFrom() && !fits();) {
    if (units[index] === task) index++;
    else drop(index);
  }

  // 3. last resort: cut the recent turns too, then drop all but the task and the newest turn, then squeeze that
  for (let unitIndex = 0; unitIndex < units.length && !fits(); unitIndex++) {
    shortenedOutputs += shortenUnit(units[unitIndex], SHORTENED_OUTPUT_TOKENS, counter);
    total -= recount(units[unitIndex], counter);
  }
  for (let index = 0; !fits() && index < units.length - 1;) {
    if (units[index] === task) index++;
    else drop(index);
  }
  const newest = units.at(-1);
  if (!fits() && newest && newest !== task) {
    const othersTokens = total - newest.tokens;
    shortenedOutputs += squeezeUnit(newest, Math.max(64, budget - othersTokens - 16), counter);
    total -= recount(newest, counter);
  }

  if (droppedMessages > 0) {
    const last = system.at(-1);
    system = last
      ? [...system.slice(0, -1), { ...last, content: `${last.content ?? ''}${omissionNote(droppedMessages)}` }]
      : [{ role: 'system', content: omissionNote(droppedMessages).trim() }];
  }
  const fitted = [...system, ...units.flatMap((unit) => unit.messages)];
  const tokens = counter.messages(fitted);
  return { messages: fitted, tokens, fits: tokens <= budget, shortenedOutputs, droppedMessages, fixedTokens };
}
