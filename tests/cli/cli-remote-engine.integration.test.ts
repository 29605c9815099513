import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { ownerLabelOf } from '../../src/main/sandbox/container-spec.js';
import { chooseEngine } from '../../src/main/sandbox/engine-choice.js';
import { dockerClient } from '../../src/main/sandbox/engine.js';
import { CoreEventSchema, type CoreEvent } from '../../src/shared/events.js';
import { cliEnv, runCli } from '../support/cli.js';
import { sequence, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js';
import { describeWithSecondEngine } from '../support/second-engine.js';

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });

function parseNdjson(stdout: string): CoreEvent[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => CoreEventSchema.parse(JSON.parse(line)));
}

describeWithSecondEngine('manus against a remote engine (DOCKER_HOST=tcp://…, the second engine)', (endpoint) => {
  let llm: FakeLlm;
  let dataDir: string;
  let workspace: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    llm = await startFakeLlm();
  });
  afterAll(async () => {
    await llm.close();
  });
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'manus-cli-remote-'));
    workspace = mkdtempSync(join(tmpdir(), 'manus-cli-remote-ws-'));
    env = {
      ...cliEnv(dataDir, llm.baseUrl),
      DOCKER_HOST: endpoint,
    };
    return () => {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(workspace, { recursive: true, force: true });
    };
  });

  it('manus run reads the user’s file and writes its result into the user’s folder, like a local run', async () => {
    writeFileSync(join(workspace, 'numbers.txt'), '3\n4\n5\n');
    llm.setScript(
      sequence(
        {
          toolCalls: [
            call('python_execute', {
              code: 'total = sum(int(x) for x in open("numbers.txt"))\nopen("total.txt", "w").write(str(total))\ntotal',
            }),
          ],
        },
        { text: 'The total is 12.', toolCalls: [call('terminate', { status: 'success' })] },
      ),
    );
    const result = await runCli(['run', '--json', '--workspace', workspace, 'Add the numbers'], env, {
      timeoutMs: 120_000,
    });
    expect(result.code, result.stderr).toBe(0);
    const events = parseNdjson(result.stdout);
    const tool = events.find(
      (event) => event.type === 'tool' && event.name === 'python_execute' && event.status === 'done',
    );
    expect(tool?.type === 'tool' && tool.output).toContain('12');
    expect(readFileSync(join(workspace, 'total.txt'), 'utf8')).toBe('12');

    const sessionId = events.find((event) => event.type === 'session')?.sessionId as string;
    const remote = dockerClient(chooseEngine(endpoint));
    const onRemote = await remote.listContainers({ all: true, filters: { label: [`manus.session=${sessionId}`] } });
    expect(onRemote).toHaveLength(1);
    const onLocal = await dockerClient().listContainers({
      all: true,
      filters: { label: [`manus.session=${sessionId}`] },
    });
    expect(onLocal).toHaveLength(0);
    expect((await runCli(['sessions', 'delete', sessionId], env)).code).toBe(0);
    expect(await remote.listContainers({ all: true, filters: { label: [`manus.session=${sessionId}`] } })).toEqual([]);
    const volumes = await remote.listVolumes({ filters: { label: [`manus.session=${sessionId}`] } });
    expect(volumes.Volumes ?? []).toEqual([]);
  });

  it('with sandbox.engine set (no DOCKER_HOST), runs there and deleting the session cleans up there', async () => {
    const { DOCKER_HOST: _unused, ...withoutHost } = env;
    expect((await runCli(['config', 'set', 'sandbox.engine', endpoint], withoutHost)).code).toBe(0);
    llm.setScript(
      sequence(
        { toolCalls: [call('python_execute', { code: 'open("made.txt", "w").write("here")' })] },
        { text: 'Done.', toolCalls: [call('terminate', { status: 'success' })] },
      ),
    );
    const result = await runCli(['run', '--json', '--workspace', workspace, 'Make a file'], withoutHost, {
      timeoutMs: 120_000,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(join(workspace, 'made.txt'), 'utf8')).toBe('here');
    const sessionId = parseNdjson(result.stdout).find((event) => event.type === 'session')?.sessionId as string;
    const remote = dockerClient(chooseEngine(endpoint));
    const label = { label: [`manus.session=${sessionId}`] };
    expect(await remote.listContainers({ all: true, filters: label })).toHaveLength(1);
    expect((await runCli(['sessions', 'delete', sessionId], withoutHost)).code).toBe(0);
    expect(await remote.listContainers({ all: true, filters: label })).toEqual([]);
    expect((await remote.listVolumes({ filters: label })).Volumes ?? []).toEqual([]);
  });

  it('manus sandbox prune removes the workspace volumes of sessions deleted while the engine was away', async () => {
    const remote = dockerClient(chooseEngine(endpoint));
    const orphan = `manus-workspace-prune-test-${Date.now()}`;
    const otherFolder = `${orphan}-other`;
    await remote.createVolume({
      Name: orphan,
      Labels: { 'manus.sandbox': '1', 'manus.session': 'deleted-session', 'manus.owner': ownerLabelOf(dataDir) },
    });
    await remote.createVolume({
      Name: otherFolder,
      Labels: { 'manus.sandbox': '1', 'manus.session': 'deleted-session', 'manus.owner': 'another-data-folder' },
    });
    try {
      const result = await runCli(['sandbox', 'prune'], env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(`Removed 1 workspace volume(s) of deleted sessions:\n  ${orphan}`);
      await expect(remote.getVolume(orphan).inspect()).rejects.toThrow();
      await expect(remote.getVolume(otherFolder).inspect()).resolves.toBeDefined();
    } finally {
      await remote
        .getVolume(otherFolder)
        .remove()
        .catch(() => undefined);
    }
  });

  it('manus sandbox status names the engine, where it is, that it is remote, and copy mode', async () => {
    const result = await runCli(['sandbox', 'status'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`answering (Docker`);
    expect(result.stdout).toContain(`at ${endpoint} (DOCKER_HOST, remote)`);
    expect(result.stdout).toContain('Workspace: copied into a volume on the engine');
    const local = await runCli(['sandbox', 'status', '--engine', 'unix:///var/run/docker.sock'], env);
    expect(local.stdout).toContain('(sandbox.engine, on this machine)');
    expect(local.stdout).toContain('Workspace: bind-mounted');
  });

  it('manus sandbox build sends the build context to that engine and builds there', async () => {
    const context = mkdtempSync(join(tmpdir(), 'manus-build-context-'));
    writeFileSync(join(context, 'Dockerfile'), 'FROM manus-sandbox:latest\nLABEL manus.test="built remotely"\n');
    const image = `manus-remote-build-test:${Date.now()}`;
    const remote = dockerClient(chooseEngine(endpoint));
    try {
      const result = await runCli(
        ['sandbox', 'build', '--image', image],
        { ...env, MANUS_SANDBOX_RESOURCES: context },
        {
          timeoutMs: 120_000,
        },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(`Building on ${endpoint} (DOCKER_HOST, remote)`);
      expect((await remote.getImage(image).inspect()).Config.Labels).toMatchObject({ 'manus.test': 'built remotely' });
      await expect(dockerClient().getImage(image).inspect()).rejects.toThrow();
    } finally {
      await remote
        .getImage(image)
        .remove({ force: true })
        .catch(() => undefined);
      rmSync(context, { recursive: true, force: true });
    }
  });

  it('manus sandbox build --offline runs the docker CLI against that engine (the image there only is found there)', async () => {
    const remote = dockerClient(chooseEngine(endpoint));
    const tag = `offline-remote-test-${Date.now()}`;
    await remote.getImage('manus-sandbox:latest').tag({ repo: 'manus-remote-only', tag });
    const image = `manus-remote-only:${tag}`;
    try {
      await expect(dockerClient().getImage(image).inspect()).rejects.toThrow();
      const { DOCKER_HOST: _unused, ...withoutHost } = env;
      const result = await runCli(
        ['sandbox', 'build', '--offline', '--image', image, '--engine', endpoint],
        withoutHost,
        {
          timeoutMs: 60_000,
        },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(`Building on ${endpoint} (sandbox.engine, remote)`);
      expect(result.stdout).toContain(`image ${image} already present`);
    } finally {
      await remote
        .getImage(image)
        .remove()
        .catch(() => undefined);
    }
  });

  it('a missing image on that engine is reported with the command that builds it there', async () => {
    llm.setScript(
      sequence(
        { toolCalls: [call('python_execute', { code: '1' })] },
        { text: 'No sandbox.', toolCalls: [call('terminate', { status: 'failure' })] },
      ),
    );
    const dataEnv = { ...env };
    expect((await runCli(['config', 'set', 'sandbox.image', 'manus-not-built:1'], dataEnv)).code).toBe(0);
    const result = await runCli(['run', '--json', '--workspace', workspace, 'Run something'], dataEnv, {
      timeoutMs: 120_000,
    });
    const tool = parseNdjson(result.stdout).find(
      (event) => event.type === 'tool' && event.name === 'python_execute' && event.status === 'error',
    );
    expect(tool?.type === 'tool' && tool.error).toMatch(/manus-not-built:1 is not on .*manus sandbox build/);
  });
});
