import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Role } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore } from '../../src/main/app/app-core.js';
import {
  HOST_LABEL,
  OWNER_LABEL,
  OWNER_PID_LABEL,
  OWNER_STARTED_LABEL,
  PID_NAMESPACE_LABEL,
  SESSION_LABEL,
  containerSpec,
  ownerLabelOf,
  ownerProcessLabels,
  sandboxIdentity,
} from '../../src/main/sandbox/container-spec.js';
import { dockerClient } from '../../src/main/sandbox/engine.js';
import { SandboxSettingsSchema } from '../../src/shared/settings/sandbox-settings.js';
import { currentProcess, type OwnerProcess } from '../../src/main/process/owner-process.js';
import { FileKeySecretBox } from '../../src/main/store/secrets.js';
import { openStore } from '../../src/main/store/store.js';
import { sequence, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js';
import { freePort } from '../mcp/support/reference-servers.js';
import { CLI_PATH, cliEnv, collect, runCli, spawnCli } from '../support/cli.js';
import { SWEEP_STAMP_FILE } from '../../src/main/cli/commands/sandbox-sweep.js';
import { waitFor } from '../support/wait-for.js';

const docker = dockerClient();
const folders: string[] = [];
/** containers this file made itself (the ones the sweep keeps must go at the end too) */
const created: string[] = [];
let llm: FakeLlm;

beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(async () => {
  await llm.close();
  await Promise.all(
    created.map((id) =>
      docker
        .getContainer(id)
        .remove({ force: true })
        .catch(() => undefined),
    ),
  );
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function folder(prefix: string): string {
  const made = mkdtempSync(join(tmpdir(), prefix));
  folders.push(made);
  return made;
}

/** A process that ran and exited: its pid names nobody any more. */
function deadProcess(): OwnerProcess {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return { pid: child.pid, started: '1', host: currentProcess().host };
}

/** A sandbox container as a manus process makes it, with the owner labels of `owner` (none: made before owners were labelled). */
async function sandboxContainer(
  sessionId: string,
  options: { owner?: OwnerProcess; dataDir?: string; running?: boolean },
): Promise<string> {
  const workspace = folder('manus-orphan-ws-');
  const spec = containerSpec(
    SandboxSettingsSchema.parse({}),
    sessionId,
    workspace,
    sandboxIdentity(workspace),
    options.dataDir ? ownerLabelOf(options.dataDir) : undefined,
  );
  const labels = { ...spec.Labels };
  for (const key of [OWNER_PID_LABEL, OWNER_STARTED_LABEL, HOST_LABEL, PID_NAMESPACE_LABEL]) delete labels[key];
  const container = await docker.createContainer({
    ...spec,
    Labels: { ...labels, ...(options.owner ? ownerProcessLabels(options.owner) : {}) },
  });
  created.push(container.id);
  if (options.running) await container.start();
  return container.id;
}

async function containersWith(label: string): Promise<{ id: string; state: string }[]> {
  const found = await docker.listContainers({ all: true, filters: { label: [label] } });
  return found.map((info) => ({ id: info.Id, state: info.State }));
}

function llmEnv(dataDir: string): Record<string, string> {
  return cliEnv(dataDir, llm.baseUrl);
}

describe('sandbox containers whose owner is gone', () => {
  it('go at start, stopped or running; the live, the other host and the reused pid are judged right', async () => {
    const dataDir = folder('manus-orphans-');
    const otherDataDir = folder('manus-orphans-other-');
    const store = openStore(dataDir);
    const kept = store.createSession({ title: 'kept', mode: 'agent', model: 'm', workspace: join(dataDir, 'ws') });
    const tag = `orphan-test-${randomUUID().slice(0, 8)}`;
    const me = currentProcess();
    const ids = {
      deadRunning: await sandboxContainer(`${tag}-dead-running`, { owner: deadProcess(), running: true }),
      deadStopped: await sandboxContainer(`${tag}-dead-stopped`, { owner: deadProcess() }),
      // a live pid with another start time is a newer process that got the pid of a dead owner
      reusedPid: await sandboxContainer(`${tag}-reused-pid`, { owner: { ...me, started: '1' } }),
      live: await sandboxContainer(`${tag}-live`, { owner: me, running: true }),
      otherHost: await sandboxContainer(`${tag}-other-host`, { owner: { ...deadProcess(), host: 'another-host' } }),
      otherPidNamespace: await sandboxContainer(`${tag}-other-pidns`, {
        owner: { ...deadProcess(), pidNamespace: 'pid:[1]' },
      }),
      legacyDeleted: await sandboxContainer(`${tag}-legacy-deleted`, { dataDir }),
      legacyKept: await sandboxContainer(kept.id, { dataDir }),
      legacyOtherFolder: await sandboxContainer(`${tag}-legacy-other`, { dataDir: otherDataDir }),
    };

    const core = createAppCore({ dataDir, store, secrets: FileKeySecretBox.inDataDir(dataDir), humanAvailable: false });
    const removed = await core.orphanSandboxesRemoved;
    const reasonOf = (id: string) => removed.find((entry) => entry.id === id)?.reason;
    expect({
      deadRunning: reasonOf(ids.deadRunning),
      deadStopped: reasonOf(ids.deadStopped),
      reusedPid: reasonOf(ids.reusedPid),
      live: reasonOf(ids.live),
      otherHost: reasonOf(ids.otherHost),
      otherPidNamespace: reasonOf(ids.otherPidNamespace),
      legacyDeleted: reasonOf(ids.legacyDeleted),
      legacyKept: reasonOf(ids.legacyKept),
      legacyOtherFolder: reasonOf(ids.legacyOtherFolder),
    }).toEqual({
      deadRunning: 'owner gone',
      deadStopped: 'owner gone',
      reusedPid: 'owner gone',
      live: undefined,
      otherHost: undefined,
      otherPidNamespace: undefined,
      legacyDeleted: 'session deleted',
      legacyKept: undefined,
      legacyOtherFolder: undefined,
    });
    const left = await docker.listContainers({ all: true, filters: { label: [SESSION_LABEL] } });
    const leftIds = new Set(left.map((info) => info.Id));
    expect(
      Object.entries(ids)
        .filter(([, id]) => leftIds.has(id))
        .map(([name]) => name),
    ).toEqual(['live', 'otherHost', 'otherPidNamespace', 'legacyKept', 'legacyOtherFolder']);
    await core.close();
    store.close();
  });

  it('`manus sandbox prune` removes them on demand and says which; --all also takes the stopped ones of live owners', async () => {
    const dataDir = folder('manus-prune-');
    const tag = `orphan-test-${randomUUID().slice(0, 8)}`;
    const dead = await sandboxContainer(`${tag}-dead`, { owner: deadProcess(), running: true });
    const liveStopped = await sandboxContainer(`${tag}-live-stopped`, { owner: currentProcess() });
    const liveRunning = await sandboxContainer(`${tag}-live-running`, { owner: currentProcess(), running: true });

    const pruned = await runCli(['sandbox', 'prune', '--json'], { MANUS_DATA_DIR: dataDir });
    expect(pruned.code, pruned.stderr).toBe(0);
    const removed = JSON.parse(pruned.stdout) as { id: string; reason: string; sessionId: string }[];
    expect(removed).toContainEqual({
      id: dead,
      name: expect.any(String),
      sessionId: `${tag}-dead`,
      reason: 'owner gone',
    });
    expect(removed.map((entry) => entry.id)).not.toContain(liveStopped);

    const all = await runCli(['sandbox', 'prune', '--all'], { MANUS_DATA_DIR: dataDir });
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain(`${liveStopped.slice(0, 12)}  idle`);
    expect(all.stdout).toContain(`session ${tag}-live-stopped`);
    expect(await containersWith(`${SESSION_LABEL}=${tag}-live-stopped`)).toEqual([]);
    expect(await containersWith(`${SESSION_LABEL}=${tag}-live-running`)).toEqual([
      { id: liveRunning, state: 'running' },
    ]);
  });

  it('a `manus run` killed with SIGKILL leaves its container running; the next `manus` start removes it', async () => {
    const dataDir = folder('manus-orphan-run-');
    llm.setScript(
      sequence(
        { toolCalls: [{ name: 'bash', arguments: { command: 'echo sandbox-$((40 + 2))-up' } }] },
        { fault: 'hang' },
      ),
    );
    const child = spawnCli(['run', '--json', 'Start the sandbox'], llmEnv(dataDir));
    child.stdin?.end();
    const exited = collect(child, 120_000);
    let stdout = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk) => {
        stdout += chunk;
        // the output, not the call's arguments: the container runs
        if (stdout.includes('sandbox-42-up')) resolve();
      });
      child.on('close', () => reject(new Error(`the run ended before its tool ran: ${stdout}`)));
    });
    const owned = `${OWNER_PID_LABEL}=${child.pid}`;
    expect((await containersWith(owned)).map((container) => container.state)).toEqual(['running']);
    child.kill('SIGKILL');
    await exited;
    expect((await containersWith(owned)).map((container) => container.state)).toEqual(['running']);

    // the sweep starts at most once a minute per data folder: the stamp goes, as if that minute had passed
    rmSync(join(dataDir, SWEEP_STAMP_FILE), { force: true });
    const list = await runCli(['sessions', 'list'], { MANUS_DATA_DIR: dataDir });
    expect(list.code).toBe(0);
    await waitFor(
      async () => (await containersWith(owned)).length === 0,
      30_000,
      'the killed run’s container to go',
      250,
    );
  });

  it('`manus a2a` killed with SIGKILL mid-task leaves its container running; the next `manus` start removes it', async () => {
    const dataDir = folder('manus-orphan-a2a-');
    llm.setScript(
      sequence({ toolCalls: [{ name: 'bash', arguments: { command: 'echo a2a-$((40 + 2))-up' } }] }, { fault: 'hang' }),
    );
    const port = await freePort();
    const token = randomUUID();
    const child = spawnCli(['a2a', '--port', String(port)], { ...llmEnv(dataDir), MANUS_A2A_TOKEN: token });
    child.stdin?.end();
    const exited = collect(child, 120_000);
    await waitFor(
      async () =>
        (await fetch(`http://127.0.0.1:${port}/.well-known/agent-card.json`).catch(() => undefined))?.ok === true,
      30_000,
      'the A2A server',
      250,
    );
    // the bearer token travels with every request (servers that do not ask for one ignore it)
    const withToken: typeof fetch = (input, init) =>
      fetch(input, {
        ...init,
        headers: { ...Object.fromEntries(new Headers(init?.headers)), authorization: `Bearer ${token}` },
      });
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [
          new JsonRpcTransportFactory({ fetchImpl: withToken }),
          new RestTransportFactory({ fetchImpl: withToken }),
        ],
      }),
    );
    const client = await factory.createFromUrl(`http://127.0.0.1:${port}`);
    // the task never finishes (the model hangs after the command): the answer is not awaited
    void client
      .sendMessage({
        tenant: '',
        message: {
          messageId: randomUUID(),
          contextId: '',
          taskId: '',
          role: Role.ROLE_USER,
          parts: [
            {
              content: { $case: 'text', value: 'Start the sandbox' },
              metadata: undefined,
              filename: '',
              mediaType: 'text/plain',
            },
          ],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        },
        configuration: undefined,
        metadata: undefined,
      })
      .catch(() => undefined);
    const owned = `${OWNER_PID_LABEL}=${child.pid}`;
    await waitFor(
      async () => (await containersWith(owned)).some((container) => container.state === 'running'),
      30_000,
      'the task’s sandbox',
      250,
    );
    child.kill('SIGKILL');
    await exited;
    expect((await containersWith(owned)).map((container) => container.state)).toEqual(['running']);

    // the sweep starts at most once a minute per data folder: the stamp goes, as if that minute had passed
    rmSync(join(dataDir, SWEEP_STAMP_FILE), { force: true });
    const list = await runCli(['sessions', 'list'], { MANUS_DATA_DIR: dataDir });
    expect(list.code).toBe(0);
    await waitFor(
      async () => (await containersWith(owned)).length === 0,
      30_000,
      'the killed A2A server’s container to go',
      250,
    );
  });

  it('`manus mcp-server` started and stopped leaves no container behind', async () => {
    const dataDir = folder('manus-orphan-mcp-');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_PATH, 'mcp-server'],
      env: { ...(process.env as Record<string, string>), ...llmEnv(dataDir) },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'orphan-test', version: '1' });
    await client.connect(transport);
    const pid = transport.pid;
    const result = await client.callTool({ name: 'bash', arguments: { command: 'echo in-the-sandbox' } }, undefined, {
      timeout: 120_000,
    });
    expect(JSON.stringify(result.content)).toContain('in-the-sandbox');
    const owned = `${OWNER_PID_LABEL}=${pid}`;
    expect(await containersWith(owned)).toHaveLength(1);
    await client.close();
    await waitFor(
      async () => {
        try {
          process.kill(pid ?? 0, 0);
          return false;
        } catch {
          return true;
        }
      },
      30_000,
      'the MCP server to exit',
      250,
    );
    expect(await containersWith(owned)).toEqual([]);
    expect(await containersWith(`${OWNER_LABEL}=${ownerLabelOf(dataDir)}`)).toEqual([]);
  });
});
