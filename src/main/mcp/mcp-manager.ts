import { EventEmitter } from 'node:events';
import type { AnyTool } from '../tool/tool.js';
import { McpSettingsSchema, type McpServerConfig, type McpSettings } from '../../shared/settings/mcp-settings.js';
import { McpServerConnection, type McpConnectionOptions, type McpServerStatus } from './server-connection.js';
import { mcpToolFor } from './mcp-tools.js';
import { mcpToolName } from './tool-name.js';

const TOOLS_CHANGED = 'tools-changed';

const STATUS_CHANGED = 'status-changed';

/**
 * All configured MCP servers of a session. Enabled servers connect in parallel; one that fails only fails itself.
 * `apply` takes a new configuration at runtime (add, remove, enable, disable, edit) and the tool list follows.
 */
export class McpManager {
  private readonly connections = new Map<string, McpServerConnection>();
  private readonly events = new EventEmitter();
  private settings: McpSettings = McpSettingsSchema.parse({});
  private tools: AnyTool[] = [];

  /** @param logDir where servers' logs go (`mcp-<name>.log`: log messages, and stdio servers' stderr) */
  constructor(
    private readonly logDir: string,
    private readonly options: McpConnectionOptions = {},
  ) {}

  /** Brings the running servers in line with `settings`; resolves when every new connect attempt ended. */
  async apply(settings: McpSettings): Promise<void> {
    const changed = JSON.stringify(settings) !== JSON.stringify(this.settings);
    this.settings = settings;
    const attempts: Promise<void>[] = [];
    for (const [name, connection] of this.connections) {
      const next = settings.servers[name];
      const stale = !next || !sameLaunch(connection.config, next) || connection.config.enabled !== next.enabled;
      // a server that wanted a sign-in is tried again: one may have happened since
      if (stale || connection.gaveUp() || connection.status().auth?.signInRequired) {
        this.connections.delete(name);
        attempts.push(connection.close());
      }
    }
    for (const [name, config] of Object.entries(settings.servers)) {
      if (this.connections.has(name)) continue;
      const connection = new McpServerConnection(name, config, this.logDir, () => this.changed(), this.options);
      this.connections.set(name, connection);
      attempts.push(config.enabled ? connection.connect() : connection.disable());
    }
    if (changed) this.changed();
    await Promise.all(attempts);
  }

  async add(name: string, config: McpServerConfig): Promise<void> {
    await this.apply({ ...this.settings, servers: { ...this.settings.servers, [name]: config } });
  }

  async remove(name: string): Promise<void> {
    const { [name]: _removed, ...servers } = this.settings.servers;
    await this.apply({ ...this.settings, servers });
  }

  async setEnabled(name: string, enabled: boolean): Promise<void> {
    const config = this.settings.servers[name];
    if (!config) throw new Error(`no MCP server named "${name}"`);
    await this.apply({ ...this.settings, servers: { ...this.settings.servers, [name]: { ...config, enabled } } });
  }

  /** Current tools of every connected server, named `mcp_{server}_{tool}` (a server that is down has none). */
  mcpTools(): AnyTool[] {
    return this.tools;
  }

  /** Lists again the tools of servers that do not announce changes (at the start of a turn; cached briefly). */
  async refreshTools(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.refreshTools()));
  }

  statuses(): McpServerStatus[] {
    return [...this.connections.values()].map((connection) => connection.status());
  }

  status(name: string): McpServerStatus | undefined {
    return this.connections.get(name)?.status();
  }

  /** For diagnostics and tests: the live connection of a server. */
  connection(name: string): McpServerConnection | undefined {
    return this.connections.get(name);
  }

  onToolsChanged(listener: (tools: AnyTool[]) => void): () => void {
    this.events.on(TOOLS_CHANGED, listener);
    return () => this.events.off(TOOLS_CHANGED, listener);
  }

  onStatusChanged(listener: (statuses: McpServerStatus[]) => void): () => void {
    this.events.on(STATUS_CHANGED, listener);
    return () => this.events.off(STATUS_CHANGED, listener);
  }

  async close(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((connection) => connection.close()));
    this.changed();
  }

  private changed(): void {
    const next = this.buildTools();
    const toolsChanged = next.map((tool) => tool.name).join('\n') !== this.tools.map((tool) => tool.name).join('\n');
    this.tools = next;
    if (toolsChanged) this.events.emit(TOOLS_CHANGED, this.tools);
    this.events.emit(STATUS_CHANGED, this.statuses());
  }

  private buildTools(): AnyTool[] {
    const tools: AnyTool[] = [];
    const taken = new Set<string>();
    for (const connection of this.connections.values()) {
      // a server that crashed or gave up would only answer "not connected": its tools wait for its reconnect
      if (!connection.isConnected()) continue;
      for (const tool of connection.listTools()) {
        let name = mcpToolName(connection.name, tool.name);
        // two tools that sanitise to the same name (a.b and a_b) get a numbered suffix
        for (let n = 2; taken.has(name); n++) name = mcpToolName(connection.name, `${tool.name}_${n}`);
        taken.add(name);
        tools.push(mcpToolFor(connection, tool, name));
      }
    }
    return tools;
  }
}

/** Whether two configs start the same server (so a change of `enabled` or approvals needs no restart). */
function sameLaunch(a: McpServerConfig, b: McpServerConfig): boolean {
  const launch = ({ enabled: _enabled, toolApproval: _approval, ...rest }: McpServerConfig) => JSON.stringify(rest);
  return launch(a) === launch(b);
}
