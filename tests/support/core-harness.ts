import type { z } from 'zod';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CoreEvent } from '../../src/shared/events.js';
import { AppSettingsSchema, type AppSettings } from '../../src/shared/settings/app-settings.js';
import type { LlmConfigInput } from '../../src/shared/settings/llm-config.js';
import { createLlm } from '../../src/main/llm/client.js';
import { BUILTIN_AGENTS } from '../../src/main/agent/agent-catalog.js';
import { BUILTIN_MODES } from '../../src/main/flow/mode-catalog.js';
import { SessionService, type SessionServiceOptions } from '../../src/main/session/session-service.js';
import { openStore } from '../../src/main/store/store.js';
import type { SessionStore } from '../../src/main/store/store-api.js';
import { startFakeLlm, type FakeLlm, type Script } from './fake-llm/index.js';

type SettingsInput = z.input<typeof AppSettingsSchema>;

export interface CoreHarness {
  dataDir: string;
  llm: FakeLlm;
  store: SessionStore;
  service: SessionService;
  settings: AppSettings;
  events: CoreEvent[];
  /** a second service over the same data folder, as after a restart */
  restart(): CoreHarness;
  close(): Promise<void>;
}

/** The real core (store, session service, openai-SDK client) on a temp data folder, talking to the scripted LLM. */
export async function startCoreHarness(
  script: Script,
  options: {
    settings?: SettingsInput;
    service?: Partial<SessionServiceOptions>;
    dataDir?: string;
    llm?: FakeLlm;
    /** settings of the test LLM on top of the defaults (e.g. a small contextWindow) */
    llmConfig?: Partial<LlmConfigInput>;
  } = {},
): Promise<CoreHarness> {
  const llm = options.llm ?? (await startFakeLlm(script));
  if (options.llm) llm.setScript(script);
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'manus-data-'));
  const settings = AppSettingsSchema.parse({
    ...options.settings,
    llms: {
      // more providers (a vision model) beside the test model
      ...options.settings?.llms,
      test: {
        provider: 'openai',
        model: 'test-model',
        baseUrl: llm.baseUrl,
        apiKey: 'sk-test',
        maxAttempts: 2,
        ...options.llmConfig,
      },
    },
    defaultLlm: 'test',
  });
  const build = (): CoreHarness => {
    const store = openStore(dataDir);
    const service = new SessionService({
      store,
      dataDir,
      settings: () => settings,
      llmFactory: (config) => createLlm(config, { retryTiming: { baseDelayMs: 5, maxDelayMs: 20 } }),
      humanAvailable: true,
      // a test core starts a session's sandbox when a tool asks; tests of the turn-start warm-up turn it on
      warmUpParts: false,
      ...options.service,
      agents: options.service?.agents ?? BUILTIN_AGENTS,
      modes: options.service?.modes ?? BUILTIN_MODES,
    });
    const events: CoreEvent[] = [];
    service.subscribe((event) => events.push(event));
    return {
      dataDir,
      llm,
      store,
      service,
      settings,
      events,
      restart: () => build(),
      async close() {
        await service.close();
        store.close();
      },
    };
  };
  const harness = build();
  const close = harness.close;
  harness.close = async () => {
    await close();
    await llm.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return harness;
}
