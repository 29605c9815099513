import { z } from 'zod';
import { MaskedSettingsSchema } from '../../../../shared/contract.js';

/** The parts of the contract's settings schema that the forms edit: their rules are the contract's, not copies. */
const settingsShape = MaskedSettingsSchema.shape;
export const LlmEntrySchema = settingsShape.llms.unwrap().valueType;
export const McpServerEntrySchema = settingsShape.mcp.unwrap().shape.servers.unwrap().valueType;
const sandboxShape = settingsShape.sandbox.unwrap().shape;

/** The lower bounds of the sandbox limits the form edits. */
export const MIN_MEMORY_MB = sandboxShape.memoryMb.unwrap().minValue ?? 0;
export const MIN_WORKSPACE_QUOTA_MB = sandboxShape.workspaceQuotaMb.unwrap().minValue ?? 0;

/** The contract takes any URL; an endpoint added in the forms is reached over http or https. */
const HttpUrlSchema = z.url({ protocol: /^https?$/ });

export function isHttpUrl(url: string): boolean {
  return HttpUrlSchema.safeParse(url).success;
}

/**
 * The fields of `value` that `schema` refuses, each with the form's message for it (zod's own message when the form
 * has none). Keyed by the top-level field name.
 */
export function fieldProblems<Field extends string>(
  schema: z.ZodType,
  value: unknown,
  messages: Partial<Record<Field, string>>,
): Partial<Record<Field | string, string>> {
  const parsed = schema.safeParse(value);
  const problems: Partial<Record<string, string>> = {};
  for (const issue of parsed.error?.issues ?? []) {
    const field = String(issue.path[0] ?? '');
    problems[field] ??= messages[field as Field] ?? issue.message;
  }
  return problems;
}
