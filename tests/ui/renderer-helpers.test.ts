import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/renderer/src/features/workspace/csv.js';
import { reviewMarks } from '../../src/renderer/src/features/sessions/review-marks.js';
import { linesToRecord, recordToLines } from '../../src/renderer/src/features/settings/settings-types.js';
import { relativeTime } from '../../src/renderer/src/features/sessions/relative-time.js';
import type { CoreEvent } from '../../src/shared/events.js';

describe('CSV preview', () => {
  it('reads quoted fields, doubled quotes, CRLF and newlines inside quotes', () => {
    const { rows } = parseCsv('name,note\r\n"Lyon, FR","said ""hi"""\r\nParis,"two\nlines"\n');
    expect(rows).toEqual([
      ['name', 'note'],
      ['Lyon, FR', 'said "hi"'],
      ['Paris', 'two\nlines'],
    ]);
  });

  it('reads tab-separated files and stops at the row limit', () => {
    expect(parseCsv('a\tb\n1\t2', '\t').rows).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    const many = Array.from({ length: 50 }, (_, index) => `${index}`).join('\n');
    const cut = parseCsv(many, ',', 10);
    expect(cut.rows).toHaveLength(10);
    expect(cut.truncated).toBe(true);
  });
});

describe('review marks', () => {
  it('marks whole messages, finished tool calls, waiting questions and the end, not stream chunks', () => {
    const base = { sessionId: 's', ts: 0 };
    const events = [
      { ...base, seq: 1, type: 'message', messageId: 'u', role: 'user', text: 'Do it', delta: false },
      { ...base, seq: 2, type: 'message', messageId: 'a', role: 'assistant', text: 'Wor', delta: true },
      { ...base, seq: 3, type: 'tool', callId: 'c', name: 'bash', args: {}, status: 'calling' },
      { ...base, seq: 4, type: 'tool', callId: 'c', name: 'bash', args: {}, status: 'done', output: 'ok' },
      { ...base, seq: 5, type: 'ask', askId: 'q', kind: 'question', question: 'Which?', status: 'waiting' },
      { ...base, seq: 6, type: 'done', status: 'finished', result: 'ok' },
    ] as unknown as CoreEvent[];
    expect(reviewMarks(events).map((mark) => [mark.position, mark.kind])).toEqual([
      [1, 'user'],
      [4, 'tool'],
      [5, 'ask'],
      [6, 'done'],
    ]);
  });
});

describe('settings helpers', () => {
  it('turns env and header lines into records and back, keeping masked values as they are', () => {
    const env = linesToRecord('API_TOKEN=••••abcd\nEMPTY_LINE_NEXT=1\n\nno separator', '=');
    expect(env).toEqual({ API_TOKEN: '••••abcd', EMPTY_LINE_NEXT: '1' });
    expect(recordToLines(env, '=')).toBe('API_TOKEN=••••abcd\nEMPTY_LINE_NEXT=1');
    expect(linesToRecord('Authorization: Bearer x:y', ':')).toEqual({ Authorization: 'Bearer x:y' });
  });

  it('says when a session was updated, in the interface language', () => {
    const now = Date.UTC(2026, 0, 10, 12);
    expect(relativeTime(now - 5 * 60_000, 'en', now)).toBe('5 minutes ago');
    expect(relativeTime(now - 5 * 60_000, 'zh', now)).toBe('5分钟前');
    expect(relativeTime(now - 2 * 86_400_000, 'en', now)).toBe('2 days ago');
  });
});
