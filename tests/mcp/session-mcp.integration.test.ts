import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionMcp } from '../../src/main/mcp/session-mcp.js';
import { McpSettingsSchema } from '../../src/shared/settings/mcp-settings.js';
import { AppSettingsSchema } from '../../src/shared/settings/app-settings.js';
import { createToolContext } from '../support/tool-context.js';
import { EVERYTHING_ENTRY } from './support/reference-servers.js';

describe('SessionMcp', () => {
  it("connects a live session's servers, serves their tools per session, follows the session's settings each turn and closes with the session", async () => {
    const servers = {
      everything: { type: 'stdio' as const, command: 'node', args: [EVERYTHING_ENTRY, 'stdio'] },
      missing: { type: 'stdio' as const, command: 'manus-missing-binary' },
    };
    const ctx = createToolContext({ settings: { mcp: { servers } } });
    const sessionMcp = new SessionMcp(mkdtempSync(join(tmpdir(), 'manus-logs-')));
    expect(sessionMcp.extraTools(ctx.sessionId)).toEqual([]);

    sessionMcp.open(ctx.session);
    const manager = await sessionMcp.ready(ctx.session);
    expect(manager.status('missing')?.status).toBe('failed');
    const tools = sessionMcp.extraTools(ctx.sessionId);
    expect(tools.map((tool) => tool.name)).toContain('mcp_everything_echo');
    const echo = tools.find((tool) => tool.name === 'mcp_everything_echo');
    expect((await echo?.execute({ message: 'from a session' }, ctx))?.output).toBe('Echo: from a session');
    expect(sessionMcp.extraTools('another-session')).toEqual([]);

    ctx.useSettings(AppSettingsSchema.parse({ mcp: { servers: { missing: servers.missing } } }));
    await sessionMcp.ready(ctx.session);
    expect(sessionMcp.extraTools(ctx.sessionId)).toEqual([]);
    expect(manager.status('everything')).toBeUndefined();

    ctx.useSettings(AppSettingsSchema.parse({ mcp: { servers } }));
    await sessionMcp.ready(ctx.session);
    expect(sessionMcp.extraTools(ctx.sessionId).map((tool) => tool.name)).toContain('mcp_everything_echo');

    await sessionMcp.applySettings(
      McpSettingsSchema.parse({ servers: { everything: { ...servers.everything, enabled: false } } }),
    );
    expect(sessionMcp.extraTools(ctx.sessionId)).toEqual([]);

    // what the session service does when it releases a session
    await Promise.all([ctx.session.release(), sessionMcp.close(ctx.sessionId)]);
    expect(sessionMcp.manager(ctx.sessionId)).toBeUndefined();
    expect(manager.status('missing')).toBeUndefined();
  });
});
