import { diffArrays } from 'diff';
import type { ToolKind } from '../../../shared/tool-result.js';

/** The pieces of a call's arguments its view and its one-line summary show. */
function field(args: unknown, key: string): unknown {
  return args && typeof args === 'object' ? (args as Record<string, unknown>)[key] : undefined;
}

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

export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** A line diff of two texts, one entry a line. */
export function lineDiff(before: string, after: string): DiffLine[] {
  return diffArrays(before.split('\n'), after.split('\n')).flatMap((change) =>
    change.value.map(
      (text) => ({ kind: change.added ? 'added' : change.removed ? 'removed' : 'same', text }) as DiffLine,
    ),
  );
}
