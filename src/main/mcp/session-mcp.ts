import type { McpSettings } from '../../shared/settings/mcp-settings.js';
import type { SessionContext } from '../tool/session-context.js';
import type { AnyTool } from '../tool/tool.js';
import { sessionClientHost } from './client-host.js';
import { McpManager } from './mcp-manager.js';
import type { McpCredentialStore } from './oauth/credential-store.js';

/**
 * MCP for the session service: each live session gets its own manager, started when the session becomes live
 * (`open`), read each step (`extraTools`), closed when the session is released (`close`).
 */
export class SessionMcp {
  private readonly managers = new Map<string, McpManager>();
  private readonly starting = new Map<string, Promise<McpManager>>();

  /**
   * @param logDir `<dataDir>/logs`: servers' logs go to `mcp-<name>.log` there
   * @param credentials remote servers' OAuth tokens (signed in with `manus mcp login` or in Settings)
   */
  constructor(
    private readonly logDir: string,
    private readonly credentials?: McpCredentialStore,
  ) {}

  /** Starts connecting the session's enabled servers in the background. */
  readonly open = (session: SessionContext): void => {
    this.managerFor(session).catch(() => undefined);
  };

  /** The session's MCP tools right now (none until its servers connected). */
  readonly extraTools = (sessionId: string): AnyTool[] => this.managers.get(sessionId)?.mcpTools() ?? [];

  /**
   * Resolves once every enabled server of the session connected or failed (each bounded by its timeout), after
   * bringing the session's servers in line with its current settings (a server switched in Settings mid-session)
   * and listing again the tools of servers that do not announce changes.
   */
  async ready(session: SessionContext): Promise<McpManager> {
    const manager = await this.managerFor(session);
    await manager.apply(session.settings().mcp);
    await manager.refreshTools();
    return manager;
  }

  /** The session is released: its servers are stopped. */
  readonly close = async (sessionId: string): Promise<void> => {
    const starting = this.starting.get(sessionId);
    this.starting.delete(sessionId);
    this.managers.delete(sessionId);
    const manager = await starting?.catch(() => undefined);
    await manager?.close().catch(() => undefined);
  };

  /** Settings changed at runtime (a server added, removed, switched): every live session follows. */
  async applySettings(settings: McpSettings): Promise<void> {
    await Promise.all([...this.managers.values()].map((manager) => manager.apply(settings)));
  }

  manager(sessionId: string): McpManager | undefined {
    return this.managers.get(sessionId);
  }

  /** One manager per session, made once; a failed start is forgotten so the next turn tries again. */
  private managerFor(session: SessionContext): Promise<McpManager> {
    const existing = this.starting.get(session.sessionId);
    if (existing) return existing;
    const manager = new McpManager(this.logDir, {
      host: sessionClientHost(session),
      credentials: this.credentials,
      outbound: session.guardedFetch,
    });
    this.managers.set(session.sessionId, manager);
    const started = manager.apply(session.settings().mcp).then(() => manager);
    this.starting.set(session.sessionId, started);
    started.catch(() => {
      if (this.starting.get(session.sessionId) !== started) return;
      this.starting.delete(session.sessionId);
      this.managers.delete(session.sessionId);
      void manager.close().catch(() => undefined);
    });
    return started;
  }
}
