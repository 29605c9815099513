import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAppCore } from '../../src/main/app/app-core.js';
import { provideDataDir } from '../../src/main/config/session-settings.js';
import { SESSION_LABEL } from '../../src/main/sandbox/container-spec.js';
import { dockerClient } from '../../src/main/sandbox/engine.js';
import { FileKeySecretBox } from '../../src/main/store/secrets.js';
import { openStore } from '../../src/main/store/store.js';
import { bashTool } from '../../src/main/tool/bash.js';
import { createToolContext } from '../support/tool-context.js';

const folders: string[] = [];
const contexts: ReturnType<typeof createToolContext>[] = [];
afterAll(async () => {
  await Promise.all(contexts.map((ctx) => ctx.resources.disposeAll()));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function dataFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'manus-orphans-'));
  folders.push(folder);
  return folder;
}

/** A session's sandbox started the way a run starts it: labelled with its data folder. */
async function sandboxOf(dataDir: string, sessionId: string): Promise<void> {
  const ctx = createToolContext({ sessionId });
  provideDataDir(ctx.resources, dataDir);
  contexts.push(ctx);
  const result = await bashTool.execute({ command: 'true' }, ctx);
  expect(result.error).toBeUndefined();
}

async function containersOf(sessionId: string): Promise<number> {
  return (await dockerClient().listContainers({ all: true, filters: { label: [`${SESSION_LABEL}=${sessionId}`] } }))
    .length;
}

describe('sandbox containers at start', () => {
  it("removes the containers of this data folder's deleted sessions, and nobody else's", async () => {
    const mine = dataFolder();
    const theirs = dataFolder();
    const store = openStore(mine);
    const kept = store.createSession({ title: 'kept', mode: 'agent', model: 'm', workspace: join(mine, 'ws') });
    const suffix = Date.now().toString(36);
    await Promise.all([
      sandboxOf(mine, kept.id),
      sandboxOf(mine, `deleted-${suffix}`),
      sandboxOf(theirs, `other-app-${suffix}`),
    ]);

    const core = createAppCore({
      dataDir: mine,
      store,
      secrets: FileKeySecretBox.inDataDir(mine),
      humanAvailable: false,
    });
    expect(await core.orphanSandboxesRemoved).toHaveLength(1);
    expect(await containersOf(`deleted-${suffix}`)).toBe(0);
    expect(await containersOf(kept.id)).toBe(1);
    expect(await containersOf(`other-app-${suffix}`)).toBe(1);
    await core.close();
    store.close();
  });
});
