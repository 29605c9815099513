import type { z } from 'zod';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { CoreEventInput } from '../../src/shared/events.js';
import type { EgressNetwork } from '../../src/main/net/egress-network.js';
import { HumanChannel } from '../../src/main/human/human-channel.js';
import type { Llm } from '../../src/main/llm/types.js';
import { createLiveSessionContext, type LiveSessionContext } from '../../src/main/session/live-session-context.js';
import { allowAllTools } from '../../src/main/tool/tool-gate.js';
import type { ToolContext } from '../../src/main/tool/tool.js';
import { AppSettingsSchema, type AppSettings } from '../../src/shared/settings/app-settings.js';

type SettingsInput = z.input<typeof AppSettingsSchema>;

export interface TestToolContext extends ToolContext {
  session: LiveSessionContext;
  events: CoreEventInput[];
  abort: AbortController;
  /** the settings of the session's next steps, as a new turn would bring */
  useSettings(settings: AppSettings): void;
  useLlm(llm: Llm): void;
  /** a resolver or connector for the browser's egress guard (a browser opened after this uses it) */
  useEgressNetwork(network: Partial<EgressNetwork>): void;
}

/** A real ToolContext over a real session context and a fresh workspace folder; events are collected, not stored. */
export function createToolContext(
  options: { workspace?: string; settings?: SettingsInput; sessionId?: string; dataDir?: string } = {},
): TestToolContext {
  const workspace = options.workspace ?? mkdtempSync(join(tmpdir(), 'manus-ws-'));
  const sessionId = options.sessionId ?? randomUUID();
  let settings: AppSettings = AppSettingsSchema.parse(options.settings ?? {});
  let llm: Llm | undefined;
  const egressNetwork: Partial<EgressNetwork> = {};
  const events: CoreEventInput[] = [];
  const emit = (event: CoreEventInput) => void events.push(event);
  const abort = new AbortController();
  const session = createLiveSessionContext({
    sessionId,
    workspace,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    settings: () => settings,
    llm: () => llm,
    human: new HumanChannel(sessionId, emit, false),
    gate: allowAllTools,
    emit,
    egressNetwork,
  });
  return {
    sessionId,
    workspace,
    callId: randomUUID(),
    toolId: randomUUID(),
    agent: 'test',
    signal: abort.signal,
    emit,
    session,
    events,
    abort,
    useSettings: (next) => {
      settings = next;
    },
    useLlm: (next) => {
      llm = next;
    },
    useEgressNetwork: (network) => void Object.assign(egressNetwork, network),
  };
}
