import { describe, expect, it } from 'vitest';
import { toFtsQuery } from '../../src/main/store/fts-query.js';
import { INDEX_BATCH_SIZE } from '../../src/main/store/message-index.js';
import { openDatabase } from '../../src/main/store/database.js';
import { MIGRATIONS } from '../../src/main/store/migrations/index.js';
import { openStore } from '../../src/main/store/store.js';
import { messageEvent, newSession, stamped, tempDir, tempStore } from './store-fixtures.js';

function askEvent(sessionId: string, question: string, answer?: string) {
  return stamped({
    type: 'ask',
    sessionId,
    askId: 'ask-1',
    kind: 'question',
    question,
    ...(answer === undefined ? { status: 'waiting' as const } : { status: 'answered' as const, answer }),
  });
}

const HOSTILE_QUERIES = [
  '"',
  '""',
  '"unbalanced',
  '*',
  'trip*',
  '-',
  '-trip',
  'trip -paris',
  'NOT',
  'AND OR NOT',
  'NEAR(trip paris)',
  'title:trip',
  '^trip',
  '(',
  ')',
  '{trip}',
  'trip + paris',
  "'; DROP TABLE sessions; --",
  '\\',
  '\u0000',
  '🙂',
  '   ',
  '',
];

describe('searchSessions', () => {
  it('finds sessions by message text of any role and by title, with the match marked «»', () => {
    const { store } = tempStore();
    const trip = newSession(store, 'Weekend plans');
    const code = newSession(store, 'Refactor the parser');
    store.appendEvent(messageEvent(trip.id, 'Book a train to Lyon for Saturday morning', { role: 'user' }));
    store.appendEvent(messageEvent(trip.id, 'Trains to Lyon leave every hour from Paris.', { role: 'assistant' }));
    store.appendEvent(messageEvent(code.id, 'The tokenizer is in lexer.ts', { role: 'system' }));

    const lyon = store.searchSessions('lyon');
    expect(lyon.map((hit) => hit.session.id)).toEqual([trip.id]);
    expect(lyon[0].snippet).toMatch(/«Lyon»/);
    expect(store.searchSessions('tokenizer').map((hit) => hit.session.id)).toEqual([code.id]);
    const byTitle = store.searchSessions('parser');
    expect(byTitle.map((hit) => hit.session.id)).toEqual([code.id]);
    expect(byTitle[0].snippet).toBe('Refactor the «parser»');
  });

  it('matches the last word as a prefix (search while typing), ignores case and accents, and ANDs words', () => {
    const { store } = tempStore();
    const session = newSession(store, 'Café visit');
    store.appendEvent(messageEvent(session.id, 'Résumé of the Brasserie review'));
    expect(store.searchSessions('bras').map((hit) => hit.session.id)).toEqual([session.id]);
    expect(store.searchSessions('RESUME brass').map((hit) => hit.session.id)).toEqual([session.id]);
    expect(store.searchSessions('cafe').map((hit) => hit.session.id)).toEqual([session.id]);
    expect(store.searchSessions('resume nowhere')).toEqual([]);
  });

  it('never indexes streamed deltas', () => {
    const { store } = tempStore();
    const session = newSession(store, 'Plain');
    store.appendEvent(messageEvent(session.id, 'zanzibar', { delta: true }));
    expect(store.searchSessions('zanzibar')).toEqual([]);
  });

  it.each(HOSTILE_QUERIES)('treats %j as plain text and never throws', (query) => {
    const { store } = tempStore();
    const session = newSession(store, 'Hostile');
    const text = 'NOT a NEAR miss: title:trip (and) "quotes" -dash {braces} to paris 🙂';
    store.appendEvent(messageEvent(session.id, text));
    const hits = store.searchSessions(query);
    const words = query.match(/[\p{L}\p{N}]+/gu);
    const indexedWords: string[] = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    const matchable = words?.every((word, index) =>
      index === words.length - 1
        ? indexedWords.some((indexed) => indexed.startsWith(word.toLowerCase()))
        : indexedWords.includes(word.toLowerCase()),
    );
    expect(hits.map((hit) => hit.session.id)).toEqual(matchable ? [session.id] : []);
  });

  it('builds quoted FTS expressions from user input', () => {
    expect(toFtsQuery('trip -paris "x', { lastWordAsPrefix: true })).toBe('"trip" "paris" "x"*');
    expect(toFtsQuery('trip -paris "x', { lastWordAsPrefix: false })).toBe('"trip" "paris" "x"');
    expect(toFtsQuery('"*-()', { lastWordAsPrefix: true })).toBeUndefined();
  });

  it('lists whole-word matches before prefix matches, and newer matches before older ones', () => {
    const { store } = tempStore();
    const prefixOnly = newSession(store, 'One');
    const older = newSession(store, 'Two');
    const newer = newSession(store, 'Three');
    store.appendEvent(messageEvent(prefixOnly.id, 'a carton of milk'));
    store.appendEvent(messageEvent(older.id, 'the car is red'));
    store.appendEvent(messageEvent(newer.id, 'my car is blue'));
    expect(store.searchSessions('car').map((hit) => hit.session.id)).toEqual([newer.id, older.id, prefixOnly.id]);
    expect(store.searchSessions('car', 2).map((hit) => hit.session.id)).toEqual([newer.id, older.id]);
    store.appendEvent(messageEvent(older.id, 'the car again'));
    expect(store.searchSessions('car').map((hit) => hit.session.id)).toEqual([older.id, newer.id, prefixOnly.id]);
    expect(store.searchSessions('car')[0].snippet).toBe('the «car» again');
  });

  it('follows renames and deletions', () => {
    const { store } = tempStore();
    const session = newSession(store, 'Old name');
    store.appendEvent(messageEvent(session.id, 'quokka facts'));
    store.updateSession(session.id, { title: 'Shiny name' });
    expect(store.searchSessions('old')).toEqual([]);
    expect(store.searchSessions('shiny').map((hit) => hit.session.id)).toEqual([session.id]);
    store.deleteSession(session.id);
    expect(store.searchSessions('quokka')).toEqual([]);
    expect(store.searchSessions('shiny')).toEqual([]);
    const left = store.db
      .prepare('SELECT (SELECT count(*) FROM message_fts) + (SELECT count(*) FROM title_fts)')
      .pluck()
      .get();
    expect(left).toBe(0);
  });

  it('ranks title matches first, one hit per session, and honours the limit', () => {
    const { store } = tempStore();
    const byTitle = newSession(store, 'Gardening notes');
    const byMessages = newSession(store, 'Misc');
    for (let index = 0; index < 5; index += 1) {
      store.appendEvent(messageEvent(byMessages.id, `gardening tip ${index}`));
    }
    const hits = store.searchSessions('gardening');
    expect(hits.map((hit) => hit.session.id)).toEqual([byTitle.id, byMessages.id]);
    expect(store.searchSessions('gardening', 1).map((hit) => hit.session.id)).toEqual([byTitle.id]);
    expect(store.searchSessions('gardening', 0)).toEqual([]);
  });

  it('indexes messages in batches and flushes what a dead process left queued', () => {
    const { store, dataDir } = tempStore();
    const session = newSession(store, 'Batch');
    for (let index = 0; index < INDEX_BATCH_SIZE + 3; index += 1) {
      store.appendEvent(messageEvent(session.id, `word${index}`));
    }
    const queued = () => store.db.prepare('SELECT count(*) FROM message_fts_queue').pluck().get();
    expect(queued()).toBe(3);
    // simulate a crash: the process goes away without close(), leaving the queue in the file
    const reopened = openStore(dataDir);
    try {
      expect(reopened.db.prepare('SELECT count(*) FROM message_fts_queue').pluck().get()).toBe(0);
      expect(reopened.db.prepare('SELECT count(*) FROM message_fts').pluck().get()).toBe(INDEX_BATCH_SIZE + 3);
    } finally {
      reopened.close();
    }
    expect(store.searchSessions(`word${INDEX_BATCH_SIZE + 2}`).map((hit) => hit.session.id)).toEqual([session.id]);
  });

  it("finds the agent's questions and the person's answers", () => {
    const { store } = tempStore();
    const session = newSession(store, 'Trip');
    store.appendEvent(askEvent(session.id, 'Which **airport** do you prefer?'));
    store.appendEvent(askEvent(session.id, 'Which **airport** do you prefer?', 'Schiphol, near Amsterdam'));
    const byQuestion = store.searchSessions('airport');
    expect(byQuestion.map((hit) => hit.session.id)).toEqual([session.id]);
    expect(byQuestion[0].snippet).toBe('Which «airport» do you prefer?');
    expect(store.searchSessions('schiphol')[0].snippet).toBe('«Schiphol», near Amsterdam');
    // the answered event repeats the question: it is indexed once
    expect(store.db.prepare('SELECT count(*) FROM message_fts').pluck().get()).toBe(2);
  });

  it('indexes Markdown as the text a person reads: snippets carry no markup, link targets or table pipes', () => {
    const { store } = tempStore();
    const session = newSession(store, 'Report');
    store.appendEvent(
      messageEvent(
        session.id,
        '## Results\n\nThe **quarterly** figures are in [the sheet](https://example.com/q3.xlsx).\n\n' +
          '| region | sales |\n| --- | --- |\n| north | 12 |\n\n- `revenue` grew\n',
      ),
    );
    const [hit] = store.searchSessions('quarterly');
    expect(hit.snippet).toContain('«quarterly» figures are in the sheet');
    expect(hit.snippet).not.toMatch(/[*#|`]|\]\(|https/);
    expect(store.searchSessions('example')).toEqual([]);
    expect(store.searchSessions('revenue')[0].snippet).toContain('«revenue» grew');
  });

  it('indexes again, as plain text, what an older version indexed, questions included', () => {
    const dataDir = tempDir();
    const older = openDatabase(dataDir, MIGRATIONS.slice(0, 4));
    older
      .prepare(
        `INSERT INTO sessions (id, title, status, mode, model, workspace, created_at, updated_at)
       VALUES ('s1', 'Old', 'finished', 'agent', 'm', '/tmp/ws', 1, 1)`,
      )
      .run();
    const insertEvent = older.prepare(`INSERT INTO events (session_id, seq, type, ts, json) VALUES ('s1', ?, ?, ?, ?)`);
    const message = {
      type: 'message',
      sessionId: 's1',
      messageId: 'm1',
      role: 'assistant',
      text: 'A **bold** claim',
      delta: false,
    };
    const question = {
      type: 'ask',
      sessionId: 's1',
      askId: 'a1',
      kind: 'question',
      question: 'Pick a colour?',
      status: 'waiting',
    };
    insertEvent.run(1, 'message', 1, JSON.stringify({ ...message, seq: 1, ts: 1 }));
    insertEvent.run(2, 'ask', 2, JSON.stringify({ ...question, seq: 2, ts: 2 }));
    // the way versions before 5 indexed it: the raw Markdown, and no questions
    older.prepare(`DELETE FROM message_fts_queue`).run();
    older.prepare(`INSERT INTO message_fts (text, session_id, seq) VALUES ('A **bold** claim', 's1', 1)`).run();
    older.close();

    const store = openStore(dataDir);
    try {
      expect(store.searchSessions('bold')[0].snippet).toBe('A «bold» claim');
      expect(store.searchSessions('colour').map((hit) => hit.session.id)).toEqual(['s1']);
      expect(store.db.prepare('SELECT count(*) FROM message_fts').pluck().get()).toBe(2);
    } finally {
      store.close();
    }
  });
});
