import { describe, expect, it } from 'vitest';
import {
  MAX_SAMPLING_REQUESTS_PER_WINDOW,
  MAX_SAMPLING_TOKENS_PER_WINDOW,
  SAMPLING_WINDOW_MS,
  SamplingLimits,
} from '../../src/main/mcp/sampling-limits.js';

/** Limits on a clock the test moves. */
function limitsAt(start = 1_000_000) {
  const clock = { now: start };
  return { clock, limits: new SamplingLimits(() => clock.now) };
}

describe('sampling limits of a server', () => {
  it('refuses past the requests of the window, each server on its own, and allows again once they left it', () => {
    const { clock, limits } = limitsAt();
    for (let sent = 0; sent < MAX_SAMPLING_REQUESTS_PER_WINDOW; sent++) {
      expect(limits.refusal('busy')).toBeUndefined();
      limits.start('busy')(10);
    }
    expect(limits.refusal('busy')).toBe(
      `it already sent ${MAX_SAMPLING_REQUESTS_PER_WINDOW} sampling requests in the last 60 s (at most ${MAX_SAMPLING_REQUESTS_PER_WINDOW})`,
    );
    expect(limits.refusal('quiet')).toBeUndefined();
    clock.now += SAMPLING_WINDOW_MS;
    expect(limits.refusal('busy')).toBeUndefined();
  });

  it('refuses once the tokens of the window are spent, counting the tokens a request settles after it started', () => {
    const { limits } = limitsAt();
    const settle = limits.start('greedy');
    expect(limits.refusal('greedy')).toBeUndefined();
    settle(MAX_SAMPLING_TOKENS_PER_WINDOW);
    expect(limits.refusal('greedy')).toBe(
      `its sampling requests already used ${MAX_SAMPLING_TOKENS_PER_WINDOW} tokens in the last 60 s (at most ${MAX_SAMPLING_TOKENS_PER_WINDOW})`,
    );
  });
});
