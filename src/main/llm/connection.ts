import { LlmConfigSchema, type LlmConfigInput } from '../../shared/settings/llm-config.js';
import { AttemptScope } from './attempt-scope.js';
import { LlmError, isLlmError, toLlmError } from './errors.js';
import { createSdkClient, type SdkClientOptions } from './providers.js';

export interface ConnectionOptions extends SdkClientOptions {
  signal?: AbortSignal;
}

export interface ConnectionReport {
  ok: boolean;
  /** model ids the endpoint lists (absent when it has no /models) */
  models?: string[];
  /** one line: what failed and how to fix it */
  error?: string;
  code?: string;
}

function parseConfig(config: LlmConfigInput) {
  const parsed = LlmConfigSchema.safeParse(config);
  if (parsed.success) return parsed.data;
  throw new LlmError(
    'invalid_config',
    `invalid LLM settings: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`,
  );
}

/** The model ids an endpoint offers (GET /models). */
export async function listModels(config: LlmConfigInput, options: ConnectionOptions = {}): Promise<string[]> {
  const parsed = parseConfig(config);
  const sdk = createSdkClient(parsed, options);
  const scope = new AttemptScope(options.signal, parsed.requestTimeoutMs, parsed.model, parsed.apiKey);
  try {
    const page = await scope.race(sdk.models.list({ signal: scope.signal }));
    return page.data.map((model) => model.id).sort();
  } catch (error) {
    throw scope.explain(error);
  } finally {
    scope.dispose();
  }
}

/** A one-token chat request, for endpoints without /models. */
async function pingChat(config: LlmConfigInput, options: ConnectionOptions): Promise<void> {
  const parsed = parseConfig(config);
  const sdk = createSdkClient(parsed, options);
  const scope = new AttemptScope(options.signal, parsed.requestTimeoutMs, parsed.model, parsed.apiKey);
  try {
    await scope.race(
      sdk.chat.completions.create(
        { model: parsed.model, messages: [{ role: 'user', content: 'ping' }], max_tokens: 1 },
        { signal: scope.signal },
      ),
    );
  } catch (error) {
    throw scope.explain(error);
  } finally {
    scope.dispose();
  }
}

function report(error: unknown, model: string, apiKey?: string): ConnectionReport {
  const failure = toLlmError(error, model, apiKey);
  return { ok: false, error: `${failure.message}. ${failure.hint}`, code: failure.code };
}

/** For the settings screen: can we reach the endpoint with this key, and which models does it offer? */
export async function testConnection(
  config: LlmConfigInput,
  options: ConnectionOptions = {},
): Promise<ConnectionReport> {
  const model = config.model ?? '(no model)';
  try {
    return { ok: true, models: await listModels(config, options) };
  } catch (error) {
    if (!isLlmError(error, 'not_found')) return report(error, model, config.apiKey);
  }
  try {
    await pingChat(config, options);
    return { ok: true };
  } catch (error) {
    return report(error, model, config.apiKey);
  }
}
