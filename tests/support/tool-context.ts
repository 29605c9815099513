import type { z } from 'zod';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { CoreEventInput } from '../../src/shared/events.js';
import type { ToolContext } from '../../src/main/tool/tool.js';
import { SessionResources } from '../../src/main/session/resources.js';
import { provideSettings } from '../../src/main/config/session-settings.js';
import { AppSettingsSchema, type AppSettings } from '../../src/shared/settings/app-settings.js';

export interface TestToolContext extends ToolContext {
  events: CoreEventInput[];
  abort: AbortController;
}

type SettingsInput = z.input<typeof AppSettingsSchema>;

/** A real ToolContext over a fresh workspace folder; events are collected instead of stored. */
export function createToolContext(
  options: { workspace?: string; settings?: SettingsInput; sessionId?: string } = {},
): TestToolContext {
  const workspace = options.workspace ?? mkdtempSync(join(tmpdir(), 'manus-ws-'));
  const sessionId = options.sessionId ?? randomUUID();
  const resources = new SessionResources(sessionId, workspace);
  const settings: AppSettings = AppSettingsSchema.parse(options.settings ?? {});
  provideSettings(resources, settings);
  const events: CoreEventInput[] = [];
  const abort = new AbortController();
  return {
    sessionId,
    workspace,
    callId: randomUUID(),
    agent: 'test',
    signal: abort.signal,
    emit: (event) => events.push(event),
    resources,
    events,
    abort,
  };
}
