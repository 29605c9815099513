import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { HumanChannel } from '../../human/human-channel.js';
import { removeSessionSandbox } from '../../sandbox/session-sandbox.js';
import { createLiveSessionContext } from '../../session/live-session-context.js';
import { allowAllTools } from '../../tool/tool-gate.js';
import { prepareManagedWorkspace } from '../../sandbox/workspace-owner.js';
import type { AppSettings } from '../../../shared/settings/app-settings.js';
import { sessionWorkspaceDir } from '../../store/data-dir.js';
import type { AnyTool } from '../../tool/tool.js';
import type { SessionStore } from '../../store/store-api.js';
import { createManusMcpServer } from '../../mcp/server/manus-mcp-server.js';
import { serveMcpOverHttp, serveMcpOverStdio } from '../../mcp/server/serve.js';
import { taskRunnerFor, type TaskService } from '../../mcp/server/task-service.js';
import { untilShutdown, withData, type OpenedData, type StoreDeps } from './command-deps.js';
import { resolveDeps, type DepsSource } from './deps-source.js';
import { announceAccess, serverToken } from './server-access.js';
import { MCP_TOKEN_ENV, type ListenOptions } from './server-options.js';
import type { RunEnvironmentOptions } from '../turn-options.js';
import { runEnvironmentOf, type RunEnvironment } from '../run-environment.js';
import { printErr } from '../output/terminal-print.js';

export interface TaskServiceOptions {
  /** the client can answer the agent's questions (A2A's `input-required`) */
  clientAnswers?: boolean;
  /** the command's `--model`, `--base-url`, `--sandbox` and `--engine` */
  environment?: RunEnvironment;
}

/** What serving the agent needs: the store and a session service over it. */
export interface AgentServeDeps<S extends SessionStore = SessionStore> extends StoreDeps<S> {
  /**
   * the session service tasks run through; the agent's questions go to the client when it can answer them (A2A's
   * `input-required`), else the model decides for itself
   */
  createTaskService(data: OpenedData<S>, options?: TaskServiceOptions): TaskService & { close(): Promise<void> };
}

export interface McpServerDeps extends AgentServeDeps {
  /** the saved settings (secrets decrypted, the command's flags applied) the offered tools run with */
  loadSettings(data: OpenedData, environment?: RunEnvironment): AppSettings;
  /** the tools `manus mcp-server` offers besides run_task (bash, python_execute, str_replace_editor, ...) */
  serverTools(): AnyTool[];
}

export interface McpServerOptions extends ListenOptions, RunEnvironmentOptions {
  transport: 'stdio' | 'http';
  token?: string;
  workspace?: string;
}

/** `manus mcp-server`: serves until the client goes away (stdio) or Ctrl-C (HTTP). */
export async function serveMcp(
  source: DepsSource<McpServerDeps>,
  options: McpServerOptions,
  command: Command,
): Promise<void> {
  const deps = await resolveDeps(source);
  // a bad MANUS_MCP_TOKEN is reported before anything is opened
  const httpAccess = options.transport === 'http' ? serverToken(options.token, MCP_TOKEN_ENV) : undefined;
  await withData(deps, command, async (data) => {
    const environment = runEnvironmentOf(options);
    const settings = deps.loadSettings(data, environment);
    const id = `mcp-server-${randomUUID()}`;
    const workspace = options.workspace ? resolve(options.workspace) : sessionWorkspaceDir(data.dataDir, id);
    if (options.workspace) mkdirSync(workspace, { recursive: true });
    else prepareManagedWorkspace(workspace);
    // the client is the one asking: no person to ask, no approval prompt, no model of ours
    const dropEvent = () => undefined;
    const session = createLiveSessionContext({
      sessionId: id,
      workspace,
      dataDir: data.dataDir,
      knowledge: data.store.knowledge,
      settings: () => settings,
      llm: () => undefined,
      human: new HumanChannel(id, dropEvent, false),
      gate: allowAllTools,
      emit: dropEvent,
    });
    const service = deps.createTaskService(data, { environment });
    const createServer = () =>
      createManusMcpServer({ tools: deps.serverTools(), runTask: taskRunnerFor(service), session });
    try {
      if (!httpAccess) {
        // stdout carries the protocol: a stray log line from any library would break the client
        console.log = console.info = console.debug = console.error;
        const server = createServer();
        // the client going away ends stdin; the SDK transport does not report that as a close
        const closed = new Promise<void>((done) => {
          server.onclose = done;
          process.stdin.once('end', done);
        });
        await serveMcpOverStdio(server);
        await untilShutdown(closed);
        return;
      }
      const { token, generated } = httpAccess;
      const http = await serveMcpOverHttp(createServer, {
        port: options.port,
        host: options.host,
        allowedHosts: options.allowHost,
        token,
      });
      // stderr, so the token never ends up in a pipe meant for data
      const write = (line: string) => printErr.line`${line}`;
      write(`Manus MCP server on ${http.url}`);
      announceAccess(write, {
        command: 'manus mcp-server',
        host: options.host,
        token,
        generated,
        envName: MCP_TOKEN_ENV,
      });
      await untilShutdown();
      await http.close();
    } finally {
      await service.close();
      // the served tools' session ends with this process: its container goes too instead of staying behind stopped
      if (session.sandbox.has()) await removeSessionSandbox(id);
      await session.release();
    }
  });
}
