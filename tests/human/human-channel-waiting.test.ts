import { describe, expect, it } from 'vitest';
import type { CoreEventInput } from '../../src/shared/events.js';
import { HumanChannel } from '../../src/main/human/human-channel.js';

function channel() {
  const changes: boolean[] = [];
  const asks: Extract<CoreEventInput, { type: 'ask' }>[] = [];
  const human = new HumanChannel(
    's1',
    (event) => {
      if (event.type === 'ask') asks.push(event);
    },
    true,
    (waiting) => changes.push(waiting),
  );
  return { human, changes, asks };
}

describe('HumanChannel waiting', () => {
  it('waits from the first open question until the last one is answered, whatever the order', async () => {
    const { human, changes, asks } = channel();
    const signal = new AbortController().signal;
    const first = human.ask({ kind: 'question', question: 'one?', signal });
    const second = human.ask({ kind: 'question', question: 'two?', signal });
    expect(changes).toEqual([true]);
    expect(human.answer(asks[1].askId, 'b')).toBe(true);
    expect(changes).toEqual([true]);
    expect(human.answer(asks[0].askId, 'a')).toBe(true);
    expect(changes).toEqual([true, false]);
    expect(await Promise.all([first, second])).toEqual(['a', 'b']);
  });

  it('stops waiting when the open question is withdrawn by a cancel', async () => {
    const { human, changes } = channel();
    const abort = new AbortController();
    const asked = human.ask({ kind: 'approval', question: 'Allow bash?', signal: abort.signal });
    abort.abort(new Error('stopped'));
    await expect(asked).rejects.toThrow('stopped');
    expect(changes).toEqual([true, false]);
    expect(human.waitingIds()).toEqual([]);
  });
});
