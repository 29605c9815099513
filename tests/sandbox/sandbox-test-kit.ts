import { createServer, type Server, type Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import { dockerClient } from '../../src/main/sandbox/engine.js';
import { prepareManagedWorkspace } from '../../src/main/sandbox/workspace-owner.js';
import { sessionWorkspaceDir } from '../../src/main/store/data-dir.js';
import { removeSessionSandbox, liveDockerSandbox } from '../../src/main/sandbox/session-sandbox.js';
import type { Tool, ToolResult } from '../../src/main/tool/tool.js';
import { createToolContext, type TestToolContext } from '../support/tool-context.js';

type SettingsInput = Parameters<typeof createToolContext>[0];

/** Calls a tool the way the agent does: arguments validated by its schema first. */
export async function call<P extends z.ZodType>(
  tool: Tool<P>,
  args: z.input<P>,
  ctx: TestToolContext,
): Promise<ToolResult> {
  return tool.execute(tool.parameters.parse(args), ctx);
}

/** Everything the model reads of a result. */
export function textOf(result: ToolResult): string {
  return [result.output, result.error].filter(Boolean).join('\n');
}

/**
 * A session in a fresh data folder. Without a workspace it gets the app's own one, made the way the app makes it
 * (as root here, owned by the image's user); with one, the folder counts as chosen by the user.
 */
export function sandboxContext(options: SettingsInput = {}): TestToolContext {
  const dataDir = mkdtempSync(join(tmpdir(), 'manus-data-'));
  const sessionId = options.sessionId ?? randomUUID();
  const workspace = options.workspace ?? sessionWorkspaceDir(dataDir, sessionId);
  if (!options.workspace) prepareManagedWorkspace(workspace);
  return createToolContext({ ...options, sessionId, workspace, dataDir });
}

export async function closeSandbox(ctx: TestToolContext): Promise<void> {
  await removeSessionSandbox(ctx.sessionId);
}

export function containerIdOf(ctx: TestToolContext): string | undefined {
  return liveDockerSandbox(ctx.sessionId)?.containerId;
}

export async function inspectContainer(
  ctx: TestToolContext,
): Promise<Awaited<ReturnType<ReturnType<ReturnType<typeof dockerClient>['getContainer']>['inspect']>>> {
  const id = containerIdOf(ctx);
  if (!id) throw new Error('no container for this session');
  return dockerClient().getContainer(id).inspect();
}

/** The host's address on the default Docker bridge: where a container with network would reach the host. */
export async function bridgeGateway(): Promise<string> {
  const bridge = await dockerClient().getNetwork('bridge').inspect();
  const config = (bridge as { IPAM?: { Config?: { Gateway?: string; Subnet?: string }[] } }).IPAM?.Config?.[0];
  // some engines leave Gateway out: the host side of docker0, or the subnet's first address, is the gateway
  const docker0 = networkInterfaces().docker0?.find((address) => address.family === 'IPv4')?.address;
  const fromSubnet = config?.Subnet?.replace(/\.0\/\d+$/, '.1');
  const gateway = config?.Gateway ?? docker0 ?? fromSubnet;
  if (!gateway) throw new Error('cannot tell the address of the Docker bridge on the host');
  return gateway;
}

/** A TCP listener on every host interface that answers "secret" and counts connections. */
export async function hostListener(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.end('secret\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    connections: () => count,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
