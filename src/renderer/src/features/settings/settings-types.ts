import type { MaskedSettings } from '../../../../shared/contract.js';
import type { ManusClient } from '../../client/manus-client.js';

export const SETTINGS_TABS = [
  'providers',
  'mcp',
  'sandbox',
  'browser',
  'search',
  'flows',
  'approval',
  'usage',
  'appearance',
] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

export type LlmEntry = MaskedSettings['llms'][string];
export type McpServerEntry = MaskedSettings['mcp']['servers'][string];

/** What every settings section gets: the current (masked) settings and a way to save a changed copy. */
export interface SectionProps {
  client: ManusClient;
  settings: MaskedSettings;
  save: (next: MaskedSettings) => Promise<boolean>;
}

/** `KEY=value` lines <-> a record (env vars, headers). */
export function recordToLines(record: Record<string, string>, separator: string): string {
  return Object.entries(record)
    .map(([key, value]) => `${key}${separator}${value}`)
    .join('\n');
}

export function linesToRecord(text: string, separator: string): Record<string, string> {
  const record: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf(separator);
    if (at <= 0) continue;
    record[line.slice(0, at).trim()] = line.slice(at + separator.length).trim();
  }
  return record;
}
