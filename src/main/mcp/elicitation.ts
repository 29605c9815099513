import type {
  ElicitRequestFormParams,
  ElicitResult,
  PrimitiveSchemaDefinition,
} from '@modelcontextprotocol/sdk/types.js';
import {
  checkElicitationContent,
  decodeElicitationAnswer,
  type ElicitationField,
  type ElicitationForm,
} from '../../shared/elicitation-form.js';
import type { HumanChannel } from '../human/human-channel.js';

/** The form to show for a server's `elicitation/create` (form mode): one field per top-level property. */
export function elicitationFormOf(server: string, params: ElicitRequestFormParams): ElicitationForm {
  const required = new Set(params.requestedSchema.required ?? []);
  const fields = Object.entries(params.requestedSchema.properties).map(([name, schema]) =>
    fieldOf(name, schema, required.has(name)),
  );
  return { server, message: params.message, fields };
}

/**
 * Asks the person to fill the form and hands the server their choice. Nobody to ask (a run without a terminal
 * or window) declines, and the person is told what was declined for them; an answer that does not fit the form
 * (a client other than ours) is a cancel, with a note.
 */
export async function askElicitation(
  human: HumanChannel,
  form: ElicitationForm,
  signal: AbortSignal,
): Promise<ElicitResult> {
  if (!human.available) {
    human.tell(
      'warning',
      'mcp_elicitation_declined',
      `MCP server "${form.server}" asked for input ("${form.message}"); declined because nobody can answer in this run.`,
      { server: form.server, message: form.message },
    );
    return { action: 'decline' };
  }
  const answer = decodeElicitationAnswer(
    await human.ask({ kind: 'elicitation', question: form.message, form, signal }),
  );
  if (answer.action !== 'accept') return { action: answer.action };
  const checked = checkElicitationContent(form, answer.content);
  if (checked.ok) return { action: 'accept', content: checked.content };
  const problems = checked.problems.join('; ');
  human.tell(
    'warning',
    'mcp_elicitation_invalid',
    `The answer to MCP server "${form.server}" did not fit its form (${problems}); sent as cancelled.`,
    { server: form.server, problems },
  );
  return { action: 'cancel' };
}

function fieldOf(name: string, schema: PrimitiveSchemaDefinition, required: boolean): ElicitationField {
  const base = { name, title: schema.title, description: schema.description, required };
  if (schema.type === 'array') {
    const options =
      'enum' in schema.items
        ? schema.items.enum.map((value) => ({ value, label: value }))
        : schema.items.anyOf.map((option) => ({ value: option.const, label: option.title }));
    return {
      ...base,
      type: 'multi_enum',
      options,
      default: schema.default,
      minItems: schema.minItems,
      maxItems: schema.maxItems,
    };
  }
  if (schema.type === 'string' && 'oneOf' in schema) {
    const options = schema.oneOf.map((option) => ({ value: option.const, label: option.title }));
    return { ...base, type: 'enum', options, default: schema.default };
  }
  if (schema.type === 'string' && 'enum' in schema) {
    const labels = 'enumNames' in schema ? schema.enumNames : undefined;
    const options = schema.enum.map((value, index) => ({ value, label: labels?.[index] ?? value }));
    return { ...base, type: 'enum', options, default: schema.default };
  }
  if (schema.type === 'string') {
    return {
      ...base,
      type: 'string',
      default: schema.default,
      format: schema.format,
      minLength: schema.minLength,
      maxLength: schema.maxLength,
    };
  }
  if (schema.type === 'boolean') return { ...base, type: 'boolean', default: schema.default };
  return { ...base, type: schema.type, default: schema.default, minimum: schema.minimum, maximum: schema.maximum };
}
