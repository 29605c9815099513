import { z } from 'zod';

/**
 * A form an MCP server asks the person to fill (`elicitation/create`), flattened from its requested schema into
 * fields every front end (conversation card, terminal prompt) draws the same way; the answer travels as JSON text.
 */

export const ELICITATION_FIELD_TYPES = ['string', 'number', 'integer', 'boolean', 'enum', 'multi_enum'] as const;

const FieldValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
export type ElicitationValue = z.infer<typeof FieldValueSchema>;

export const ElicitationFieldSchema = z.object({
  name: z.string(),
  type: z.enum(ELICITATION_FIELD_TYPES),
  title: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean(),
  /** enum and multi_enum: the values offered, with the label to show */
  options: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
  default: FieldValueSchema.optional(),
  format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  minLength: z.number().optional(),
  maxLength: z.number().optional(),
  minItems: z.number().optional(),
  maxItems: z.number().optional(),
});
export type ElicitationField = z.infer<typeof ElicitationFieldSchema>;

export const ElicitationFormSchema = z.object({
  server: z.string(),
  message: z.string(),
  fields: z.array(ElicitationFieldSchema),
});
export type ElicitationForm = z.infer<typeof ElicitationFormSchema>;

export const ElicitationAnswerSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('accept'), content: z.record(z.string(), FieldValueSchema) }),
  z.object({ action: z.literal('decline') }),
  z.object({ action: z.literal('cancel') }),
]);
export type ElicitationAnswer = z.infer<typeof ElicitationAnswerSchema>;

export function encodeElicitationAnswer(answer: ElicitationAnswer): string {
  return JSON.stringify(answer);
}

/** The answer text of an ask; anything that is not a well-formed answer counts as a cancel. */
export function decodeElicitationAnswer(text: string | undefined): ElicitationAnswer {
  try {
    const parsed = ElicitationAnswerSchema.safeParse(JSON.parse(text ?? ''));
    return parsed.success ? parsed.data : { action: 'cancel' };
  } catch {
    return { action: 'cancel' };
  }
}

export type FieldCheck = { ok: true; value: ElicitationValue | undefined } | { ok: false; problem: string };

/**
 * What a person typed for a field, as the value the server asked for: numbers parsed, booleans read from
 * yes/no words, enums matched by value or label, multi_enum as comma-separated choices. Empty means "not given".
 */
export function readFieldInput(field: ElicitationField, input: string): FieldCheck {
  const text = input.trim();
  if (!text) return field.required ? { ok: false, problem: 'required' } : { ok: true, value: undefined };
  switch (field.type) {
    case 'boolean': {
      const word = text.toLowerCase();
      if (['y', 'yes', 'true', 'on', '1'].includes(word)) return { ok: true, value: true };
      if (['n', 'no', 'false', 'off', '0'].includes(word)) return { ok: true, value: false };
      return { ok: false, problem: 'answer yes or no' };
    }
    case 'number':
    case 'integer':
      return checkFieldValue(field, Number(text));
    case 'enum':
      return checkFieldValue(field, optionValue(field, text) ?? text);
    case 'multi_enum':
      return checkFieldValue(
        field,
        text
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean)
          .map((part) => optionValue(field, part) ?? part),
      );
    case 'string':
      return checkFieldValue(field, text);
  }
}

/** Whether a value fits its field (type, bounds, options); the core checks every accepted answer with this. */
export function checkFieldValue(field: ElicitationField, value: unknown): FieldCheck {
  if (value === undefined || value === '') {
    return field.required ? { ok: false, problem: 'required' } : { ok: true, value: undefined };
  }
  const offered = new Set(field.options?.map((option) => option.value));
  switch (field.type) {
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : { ok: false, problem: 'must be yes or no' };
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return { ok: false, problem: 'must be a number' };
      if (field.type === 'integer' && !Number.isInteger(value)) return { ok: false, problem: 'must be a whole number' };
      if (field.minimum !== undefined && value < field.minimum)
        return { ok: false, problem: `at least ${field.minimum}` };
      if (field.maximum !== undefined && value > field.maximum)
        return { ok: false, problem: `at most ${field.maximum}` };
      return { ok: true, value };
    }
    case 'enum':
      return typeof value === 'string' && offered.has(value)
        ? { ok: true, value }
        : { ok: false, problem: `one of ${[...offered].join(', ')}` };
    case 'multi_enum': {
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && offered.has(item))) {
        return { ok: false, problem: `choose among ${[...offered].join(', ')}` };
      }
      if (field.minItems !== undefined && value.length < field.minItems)
        return { ok: false, problem: `choose at least ${field.minItems}` };
      if (field.maxItems !== undefined && value.length > field.maxItems)
        return { ok: false, problem: `choose at most ${field.maxItems}` };
      return { ok: true, value: value as string[] };
    }
    case 'string': {
      if (typeof value !== 'string') return { ok: false, problem: 'must be text' };
      if (field.minLength !== undefined && value.length < field.minLength)
        return { ok: false, problem: `at least ${field.minLength} characters` };
      if (field.maxLength !== undefined && value.length > field.maxLength)
        return { ok: false, problem: `at most ${field.maxLength} characters` };
      return { ok: true, value };
    }
  }
}

/** The accepted content checked field by field; problems name the field (its title when it has one). */
export function checkElicitationContent(
  form: ElicitationForm,
  content: Record<string, unknown>,
): { ok: true; content: Record<string, ElicitationValue> } | { ok: false; problems: string[] } {
  const checked: Record<string, ElicitationValue> = {};
  const problems: string[] = [];
  for (const field of form.fields) {
    const result = checkFieldValue(field, content[field.name]);
    if (!result.ok) problems.push(`${field.title ?? field.name}: ${result.problem}`);
    else if (result.value !== undefined) checked[field.name] = result.value;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, content: checked };
}

/** The values a form starts with: each field's default, when the server gave one. */
export function defaultElicitationContent(form: ElicitationForm): Record<string, ElicitationValue> {
  const values: Record<string, ElicitationValue> = {};
  for (const field of form.fields) if (field.default !== undefined) values[field.name] = field.default;
  return values;
}

function optionValue(field: ElicitationField, text: string): string | undefined {
  const lower = text.toLowerCase();
  return field.options?.find((option) => option.value === text || option.label.toLowerCase() === lower)?.value;
}
