import type { LlmEntry } from './settings-types.js';
import { DEFAULT_MAX_REPLY_CHARS } from '../../../../shared/settings/llm-config.js';

export const PROVIDERS = ['openai', 'azure', 'compatible'] as const;

/** The provider form's fields as typed. */
export interface ProviderDraft {
  /** the name it had when editing began; undefined for a new provider */
  originalName?: string;
  name: string;
  provider: (typeof PROVIDERS)[number];
  baseUrl: string;
  apiKey: string;
  model: string;
  apiVersion: string;
  deployment: string;
  vision: 'auto' | 'yes' | 'no';
}

export function draftOf(name: string | undefined, entry?: LlmEntry): ProviderDraft {
  return {
    originalName: name,
    name: name ?? '',
    provider: entry?.provider ?? 'openai',
    baseUrl: entry?.baseUrl ?? '',
    apiKey: entry?.apiKey ?? '',
    model: entry?.model ?? '',
    apiVersion: entry?.apiVersion ?? '',
    deployment: entry?.deployment ?? '',
    vision: entry?.vision === true ? 'yes' : entry?.vision === false ? 'no' : 'auto',
  };
}

export function entryOf(draft: ProviderDraft, previous?: LlmEntry): LlmEntry {
  const base: LlmEntry = previous ?? {
    provider: 'openai',
    model: '',
    maxTokens: 4096,
    contextWindow: 128_000,
    vision: 'auto',
    toolCalling: 'auto',
    requestTimeoutMs: 120_000,
    maxAttempts: 6,
    maxReplyChars: DEFAULT_MAX_REPLY_CHARS,
  };
  return {
    ...base,
    provider: draft.provider,
    model: draft.model.trim(),
    baseUrl: draft.baseUrl.trim() || undefined,
    apiKey: draft.apiKey || undefined,
    apiVersion: draft.provider === 'azure' ? draft.apiVersion.trim() || undefined : undefined,
    deployment: draft.provider === 'azure' ? draft.deployment.trim() || undefined : undefined,
    vision: draft.vision === 'auto' ? 'auto' : draft.vision === 'yes',
  };
}
