import { describe, expect, it } from 'vitest';
import { SESSION_STATUSES } from '../../src/shared/session-vocabulary.js';
import { en } from '../../src/renderer/src/i18n/en.js';
import { zh } from '../../src/renderer/src/i18n/zh.js';

// the header, the sidebar's rows and review mode name a status by `status.${status}`: a key the types cannot check
describe('session status labels', () => {
  it('name every status a session can have, in English and in Chinese', () => {
    const labels = (texts: { status: Record<string, string> }) =>
      SESSION_STATUSES.filter((status) => !texts.status[status]?.trim());
    expect({ en: labels(en), zh: labels(zh) }).toEqual({ en: [], zh: [] });
  });
});
