import { settingsOf } from '../config/session-settings.js';
import { defineResource, type ResourceKey, type SessionResources } from '../session/resources.js';
import type { AnyTool } from '../tool/tool.js';
import type { McpSettings } from '../../shared/settings/mcp-settings.js';
import { McpManager } from './mcp-manager.js';
import { sessionClientHost } from './client-host.js';
import type { McpCredentialStore } from './oauth/credential-store.js';

/**
 * MCP for the session service: each live session gets its own manager, started when the session becomes live
 * (`onSessionLive`), read each step (`extraTools`), closed with the session's resources.
 */
export class SessionMcp {
  private readonly managers = new Map<string, McpManager>();
  readonly resource: ResourceKey<McpManager>;

  /**
   * @param logDir `<dataDir>/logs`: servers' logs go to `mcp-<name>.log` there
   * @param credentials remote servers' OAuth tokens (signed in with `manus mcp login` or in Settings)
   */
  constructor(logDir: string, credentials?: McpCredentialStore) {
    this.resource = defineResource<McpManager>({
      name: 'mcp',
      create: async (owner) => {
        const manager = new McpManager(logDir, { host: sessionClientHost(owner.resources), credentials });
        this.managers.set(owner.sessionId, manager);
        await manager.apply(settingsOf(owner.resources).mcp);
        return manager;
      },
      dispose: async (manager) => {
        for (const [sessionId, known] of this.managers) if (known === manager) this.managers.delete(sessionId);
        await manager.close();
      },
    });
  }

  /** Starts connecting the session's enabled servers in the background. */
  readonly onSessionLive = (resources: SessionResources): void => {
    resources.get(this.resource).catch(() => undefined);
  };

  /** The session's MCP tools right now (none until its servers connected). */
  readonly extraTools = (sessionId: string): AnyTool[] => this.managers.get(sessionId)?.mcpTools() ?? [];

  /**
   * Resolves once every enabled server of the session connected or failed (each bounded by its timeout), after
   * bringing the session's servers in line with its current settings (a server switched in Settings mid-session).
   */
  async ready(resources: SessionResources): Promise<McpManager> {
    const manager = await resources.get(this.resource);
    await manager.apply(settingsOf(resources).mcp);
    return manager;
  }

  /** Settings changed at runtime (a server added, removed, switched): every live session follows. */
  async applySettings(settings: McpSettings): Promise<void> {
    await Promise.all([...this.managers.values()].map((manager) => manager.apply(settings)));
  }

  manager(sessionId: string): McpManager | undefined {
    return this.managers.get(sessionId);
  }
}
