import { createServer, type Server } from 'node:net';
import type { z } from 'zod';
import { dockerClient } from '../../src/main/sandbox/engine.js';
import { removeSessionSandbox, liveDockerSandbox } from '../../src/main/sandbox/session-sandbox.js';
import type { Tool, ToolResult } from '../../src/main/tool/tool.js';
import { createToolContext, type TestToolContext } from '../support/tool-context.js';

type SettingsInput = Parameters<typeof createToolContext>[0];

/** Calls a tool the way the agent does: arguments validated by its schema first. */
export async function call<P extends z.ZodType>(tool: Tool<P>, args: z.input<P>, ctx: TestToolContext): Promise<ToolResult> {
  return tool.execute(tool.parameters.parse(args), ctx);
}

/** Everything the model reads of a result. */
export function textOf(result: ToolResult): string {
  return [result.output, result.error].filter(Boolean).join('\n');
}

export function sandboxContext(options: SettingsInput = {}): TestToolContext {
  return createToolContext(options);
}

export async function closeSandbox(ctx: TestToolContext): Promise<void> {
  await removeSessionSandbox(ctx.sessionId);
}

export function containerIdOf(ctx: TestToolContext): string | undefined {
  return liveDockerSandbox(ctx.sessionId)?.containerId;
}

export async function inspectContainer(ctx: TestToolContext): Promise<Awaited<ReturnType<ReturnType<ReturnType<typeof dockerClient>['getContainer']>['inspect']>>> {
  const id = containerIdOf(ctx);
  if (!id) throw new Error('no container for this session');
  return dockerClient().getContainer(id).inspect();
}

/** The host's address on the default Docker bridge: where a container with network would reach the host. */
export async function bridgeGateway(): Promise<string> {
  const bridge = await dockerClient().getNetwork('bridge').inspect();
  const gateway = (bridge as { IPAM?: { Config?: { Gateway?: string }[] } }).IPAM?.Config?.[0]?.Gateway;
  if (!gateway) throw new Error('the bridge network has no gateway');
  return gateway;
}

/** A TCP listener on every host interface that answers "secret" and counts connections. */
export async function hostListener(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server: Server = createServer((socket) => {
    count++;
    socket.end('secret\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    connections: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Watches the Node event loop: the largest gap between 20 ms ticks shows whether the app stayed responsive. */
export function watchEventLoop(): { stop: () => number } {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 20);
  return {
    stop: () => {
      clearInterval(timer);
      return worst;
    },
  };
}
