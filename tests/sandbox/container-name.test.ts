import { describe, expect, it } from 'vitest';
import { containerSpec, sandboxIdentity } from '../../src/main/sandbox/container-spec.js';
import { SandboxSettingsSchema } from '../../src/shared/settings/sandbox-settings.js';

describe('sandbox container names', () => {
  it('differ for sessions whose ids share a long prefix, even within one millisecond', () => {
    const settings = SandboxSettingsSchema.parse({});
    const identity = sandboxIdentity('/tmp/ws', { uid: 1000, gid: 1000 });
    const prefix = 'orphan-test-0b6a9f5e-3c1d-4f7a-9e2b-5d8c7a6b4e3f-';
    const names = new Set(
      ['live', 'gone', 'live', 'gone'].map(
        (suffix) => containerSpec(settings, prefix + suffix, '/tmp/ws', identity).name,
      ),
    );
    expect(names.size).toBe(4);
  });
});
