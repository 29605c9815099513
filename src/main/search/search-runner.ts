import { setTimeout as delay } from 'node:timers/promises';
import type { SearchEngineName, SearchSettings } from '../../shared/settings/search-settings.js';
import { EngineNotConfiguredError, type SearchQuery, type SearchResult } from './search-types.js';
import { HttpStatusError } from './http-fetch.js';
import { SEARCH_ENGINE_REGISTRY } from './engines/engine-registry.js';
import { EngineBlockedError } from './engines/engine-helpers.js';

export interface EngineFailure {
  engine: SearchEngineName;
  attempt: number;
  error: string;
}

export interface SearchOutcome {
  engine: SearchEngineName;
  results: SearchResult[];
  /** tries that failed before `engine` answered */
  failures: EngineFailure[];
}

export class AllEnginesFailedError extends Error {
  override readonly name = 'AllEnginesFailedError';
  constructor(readonly failures: EngineFailure[]) {
    super(
      `Every search engine failed:\n${failures.map((f) => `- ${f.engine} (try ${f.attempt}): ${f.error}`).join('\n')}`,
    );
  }
}

class NoResultsError extends Error {
  override readonly name = 'NoResultsError';
}

export interface SearchRunOptions {
  signal: AbortSignal;
  /** one line per engine failure or switch, for progress events */
  onProgress?: (text: string) => void;
}

/** The configured engine first, then the fallbacks in order, each without repeats. */
export function engineOrder(settings: Pick<SearchSettings, 'engine' | 'fallbackEngines'>): SearchEngineName[] {
  return [...new Set([settings.engine, ...settings.fallbackEngines])];
}

/** Whether another try of the same engine could help: not for missing settings, bot checks, refusals or no results. */
function worthRetrying(error: unknown): boolean {
  if (error instanceof EngineNotConfiguredError || error instanceof NoResultsError) return false;
  if (error instanceof EngineBlockedError) return false;
  if (error instanceof HttpStatusError) return error.status >= 500 || error.status === 408 || error.status === 429;
  return true;
}

function describeError(error: unknown): string {
  if (error instanceof Error && error.name === 'ZodError') return 'the reply did not have the expected shape';
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  return error instanceof Error ? error.message : String(error);
}

/** Searches with the engine order and retries with doubling delays; throws AllEnginesFailedError naming each failure. */
export async function searchWeb(
  query: SearchQuery,
  settings: SearchSettings,
  options: SearchRunOptions,
): Promise<SearchOutcome> {
  const failures: EngineFailure[] = [];
  for (const name of engineOrder(settings)) {
    const engine = SEARCH_ENGINE_REGISTRY[name];
    const config = settings.engines[name] ?? {};
    for (let attempt = 1; attempt <= settings.retriesPerEngine; attempt++) {
      options.signal.throwIfAborted();
      try {
        const results = await engine.search({ query, config, settings, signal: options.signal });
        if (results.length === 0) throw new NoResultsError('no results');
        return { engine: name, results, failures };
      } catch (error) {
        options.signal.throwIfAborted();
        const failure = { engine: name, attempt, error: describeError(error) };
        failures.push(failure);
        const retry = worthRetrying(error) && attempt < settings.retriesPerEngine;
        options.onProgress?.(`${name} failed (${failure.error})${retry ? ', retrying' : ''}`);
        if (!retry) break;
        await delay(settings.retryDelayMs * 2 ** (attempt - 1), undefined, { signal: options.signal });
      }
    }
  }
  throw new AllEnginesFailedError(failures);
}
