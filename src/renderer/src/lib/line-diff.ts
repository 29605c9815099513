import { diffArrays } from 'diff';

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
