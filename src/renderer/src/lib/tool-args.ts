import type { ToolKind } from '../../../shared/tool-kind.js';

function field(args: unknown, key: string): unknown {
  return args && typeof args === 'object' ? (args as Record<string, unknown>)[key] : undefined;
}

/** A text argument of a call, for its view and its one-line summary (what was asked; the result is on the event). */
export function stringField(args: unknown, key: string): string | undefined {
  const value = field(args, key);
  return typeof value === 'string' ? value : undefined;
}

/** One line that says what the call does, for the collapsed card. */
export function toolSummary(kind: ToolKind, args: unknown): string {
  const pick =
    kind === 'python'
      ? stringField(args, 'code')
          ?.split('\n')
          .find((line) => line.trim())
      : kind === 'bash'
        ? stringField(args, 'command')
        : kind === 'file'
          ? [stringField(args, 'command'), stringField(args, 'path')].filter(Boolean).join(' ')
          : kind === 'browser'
            ? [
                stringField(args, 'action'),
                stringField(args, 'url') ?? stringField(args, 'query') ?? stringField(args, 'text'),
              ]
                .filter(Boolean)
                .join(' ')
            : kind === 'search'
              ? stringField(args, 'query')
              : undefined;
  if (pick) return pick;
  try {
    return JSON.stringify(args) ?? '';
  } catch {
    return '';
  }
}
