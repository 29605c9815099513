import type { LlmConfig } from '../../shared/settings/llm-config.js';
import { baseUrlOf } from './providers.js';
import { parseToolArguments } from './tool-arguments.js';

/**
 * How a provider family wants tool parameter schemas. OpenAI's strict mode needs every object closed
 * (`additionalProperties: false`) and every property required (optional ones nullable); Gemini rejects
 * `additionalProperties`, null types and most keywords beyond an OpenAPI 3.0 subset. Other servers get the schema as is.
 */
export type SchemaDialect = 'openai-strict' | 'gemini' | 'plain';

type Schema = Record<string, unknown>;

/** Keywords strict mode accepts; the rest (minLength, default, examples, prefixItems...) are refused. */
const STRICT_KEYWORDS = new Set([
  'type',
  'description',
  'title',
  'enum',
  'const',
  'pattern',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'minItems',
  'maxItems',
  '$ref',
]);
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);

/** Keywords Gemini's function declarations accept besides the structural ones handled below. */
const GEMINI_KEYWORDS = new Set([
  'title',
  'description',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'propertyOrdering',
]);
const GEMINI_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array']);
const GEMINI_FORMATS: Record<string, ReadonlySet<string>> = {
  string: new Set(['enum', 'date-time']),
  number: new Set(['float', 'double']),
  integer: new Set(['int32', 'int64']),
};
/** $refs are inlined for Gemini; a recursive schema is cut at this depth. */
const MAX_REF_DEPTH = 8;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typesOf(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.filter((type): type is string => typeof type === 'string') : [];
}

function isObjectSchema(schema: Schema): boolean {
  return typesOf(schema).includes('object') || isSchema(schema.properties);
}

/** zod bounds every integer by ±MAX_SAFE_INTEGER: tokens that say nothing, left out. */
function isSafeIntegerBound(key: string, value: unknown): boolean {
  return (key === 'minimum' || key === 'maximum') && Math.abs(Number(value)) === Number.MAX_SAFE_INTEGER;
}

/** A default the dialect cannot carry is still worth telling the model. */
function withDefaultNoted(schema: Schema): string | undefined {
  const description = typeof schema.description === 'string' ? schema.description : undefined;
  if (schema.default === undefined) return description;
  const note = `(default: ${JSON.stringify(schema.default)})`;
  return description ? `${description} ${note}` : note;
}

/** prefixItems (tuples) as one items schema: the members' union, or the member when they are all alike. */
function tupleItems(schema: Schema): Schema | undefined {
  if (isSchema(schema.items)) return schema.items;
  if (!Array.isArray(schema.prefixItems) || schema.prefixItems.length === 0) return undefined;
  const members = schema.prefixItems.filter(isSchema);
  const byType = new Map(members.map((member) => [JSON.stringify(member.type), member]));
  if (byType.size === 1) {
    const [only] = byType.values();
    return { type: only.type };
  }
  return { anyOf: members };
}

export function schemaDialectOf(config: LlmConfig): SchemaDialect {
  const host = (() => {
    try {
      return new URL(baseUrlOf(config)).hostname;
    } catch {
      return '';
    }
  })();
  if (/gemini/i.test(config.model) || /(^|\.)(generativelanguage|aiplatform)\.googleapis\.com$/.test(host)) {
    return 'gemini';
  }
  if (config.provider === 'azure' || host === 'api.openai.com') return 'openai-strict';
  return 'plain';
}

// ---- OpenAI strict mode ----

/** Strict mode cannot say "any value" or "an object with any keys"; such a schema is sent as is, not strict. */
function strictExpressible(schema: unknown): boolean {
  if (!isSchema(schema)) return false;
  if (Object.keys(schema).length === 0) return false;
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return false;
  if (isObjectSchema(schema) && !isSchema(schema.properties)) return false;
  const children = [
    ...Object.values(isSchema(schema.properties) ? schema.properties : {}),
    ...(isSchema(schema.items) ? [schema.items] : []),
    ...(Array.isArray(schema.prefixItems) ? schema.prefixItems : []),
    ...(Array.isArray(schema.anyOf) ? schema.anyOf : []),
    ...(Array.isArray(schema.oneOf) ? schema.oneOf : []),
    ...Object.values(isSchema(schema.$defs) ? schema.$defs : {}),
    ...Object.values(isSchema(schema.definitions) ? schema.definitions : {}),
  ];
  return children.every((child) => strictExpressible(child));
}

function nullable(schema: Schema): Schema {
  const types = typesOf(schema);
  if (types.includes('null')) return schema;
  if (typeof schema.type === 'string' && schema.anyOf === undefined && schema.$ref === undefined) {
    const withNull: Schema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) withNull.enum = [...schema.enum, null];
    return withNull;
  }
  const { description, ...rest } = schema;
  return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: 'null' }] };
}

function toStrict(schema: Schema): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'format' && typeof value === 'string' && STRICT_FORMATS.has(value)) out.format = value;
    else if (STRICT_KEYWORDS.has(key) && !isSafeIntegerBound(key, value)) out[key] = value;
  }
  const description = withDefaultNoted(schema);
  if (description !== undefined) out.description = description;
  if (isObjectSchema(schema)) {
    out.type ??= 'object';
    const properties = isSchema(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, child]) => {
        const strict = toStrict(isSchema(child) ? child : {});
        return [name, required.has(name) ? strict : nullable(strict)];
      }),
    );
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  const items = tupleItems(schema);
  if (items) out.items = toStrict(items);
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (union) out.anyOf = union.map((member) => toStrict(isSchema(member) ? member : {}));
  for (const defsKey of ['$defs', 'definitions'] as const) {
    const defs = schema[defsKey];
    if (isSchema(defs)) {
      out[defsKey] = Object.fromEntries(
        Object.entries(defs).map(([name, child]) => [name, toStrict(isSchema(child) ? child : {})]),
      );
    }
  }
  return out;
}

// ---- Gemini ----

function resolveRef(ref: unknown, root: Schema): Schema | undefined {
  if (typeof ref !== 'string') return undefined;
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  const defs = match ? root[match[1]] : undefined;
  const target = isSchema(defs) ? defs[match![2]] : undefined;
  return isSchema(target) ? target : undefined;
}

function toGemini(schema: Schema, root: Schema, depth: number): Schema {
  const referenced = schema.$ref !== undefined ? resolveRef(schema.$ref, root) : undefined;
  if (referenced && depth < MAX_REF_DEPTH) {
    const { $ref: _ref, ...siblings } = schema;
    return toGemini({ ...referenced, ...siblings }, root, depth + 1);
  }
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  const allOf = Array.isArray(schema.allOf) && schema.allOf.length === 1 ? schema.allOf[0] : undefined;
  if (isSchema(allOf)) {
    const { allOf: _allOf, ...siblings } = schema;
    return toGemini({ ...allOf, ...siblings }, root, depth);
  }

  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (GEMINI_KEYWORDS.has(key) && !isSafeIntegerBound(key, value)) out[key] = value;
  }
  const description = withDefaultNoted(schema);
  if (description !== undefined) out.description = description;
  if (typeof schema.exclusiveMinimum === 'number' && out.minimum === undefined) out.minimum = schema.exclusiveMinimum;
  if (typeof schema.exclusiveMaximum === 'number' && out.maximum === undefined) out.maximum = schema.exclusiveMaximum;

  const types = typesOf(schema);
  const nonNull = types.filter((type) => type !== 'null' && GEMINI_TYPES.has(type));
  let isNullable = types.includes('null') || schema.nullable === true;
  if (union) {
    const members = union.filter(isSchema);
    const real = members.filter((member) => !(typesOf(member).length === 1 && typesOf(member)[0] === 'null'));
    isNullable ||= real.length < members.length;
    if (real.length === 1) {
      const merged = toGemini({ ...real[0], ...out }, root, depth);
      return isNullable ? { ...merged, nullable: true } : merged;
    }
    out.anyOf = real.map((member) => toGemini(member, root, depth));
  } else if (nonNull.length === 1) {
    out.type = nonNull[0];
  } else if (nonNull.length > 1) {
    out.anyOf = nonNull.map((type) => ({ type }));
  }
  if (isNullable) out.nullable = true;

  const values = schema.const !== undefined ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined;
  if (values) {
    const listed = values.filter((value) => value !== null);
    if (listed.every((value) => typeof value === 'string')) {
      out.type = 'string';
      out.enum = listed;
    } else {
      // Gemini takes enums of strings only: other values are told in words
      out.type ??= typeof listed[0] === 'number' ? 'number' : typeof listed[0] === 'boolean' ? 'boolean' : undefined;
      out.description = `${out.description ? `${String(out.description)} ` : ''}One of: ${listed.map((value) => JSON.stringify(value)).join(', ')}.`;
    }
  }
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  if (format && GEMINI_FORMATS[String(out.type)]?.has(format)) out.format = format;

  if (out.type === 'object' || isSchema(schema.properties)) {
    out.type = 'object';
    const properties = isSchema(schema.properties) ? schema.properties : {};
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, child]) => [name, toGemini(isSchema(child) ? child : {}, root, depth)]),
    );
    const required = Array.isArray(schema.required) ? schema.required.filter((name) => String(name) in properties) : [];
    if (required.length) out.required = required;
    else delete out.required;
  }
  if (out.type === 'array') out.items = toGemini(tupleItems(schema) ?? { type: 'string' }, root, depth);
  return out;
}

// ---- per dialect ----

const converted: Record<Exclude<SchemaDialect, 'plain'>, WeakMap<Schema, WireSchema>> = {
  'openai-strict': new WeakMap(),
  gemini: new WeakMap(),
};

export interface WireSchema {
  parameters: Schema;
  /** sent as the function's `strict` flag */
  strict?: boolean;
}

/** A tool's parameter schema as the dialect's providers accept it. */
export function parametersFor(dialect: SchemaDialect, schema: Schema): WireSchema {
  if (dialect === 'plain') return { parameters: schema };
  const cached = converted[dialect].get(schema);
  if (cached) return cached;
  let wire: WireSchema;
  if (dialect === 'gemini') wire = { parameters: toGemini(schema, schema, 0) };
  else if (strictExpressible(schema)) wire = { parameters: toStrict(schema), strict: true };
  else wire = { parameters: schema };
  converted[dialect].set(schema, wire);
  return wire;
}

function withoutOptionalNulls(value: unknown, schema: Schema): unknown {
  if (Array.isArray(value)) {
    const items = tupleItems(schema);
    return items ? value.map((item) => withoutOptionalNulls(item, items)) : value;
  }
  if (!isSchema(value) || !isSchema(schema.properties)) return value;
  const properties = schema.properties;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name, child]) => !(child === null && !required.has(name)))
      .map(([name, child]) => [
        name,
        isSchema(properties[name]) ? withoutOptionalNulls(child, properties[name]) : child,
      ]),
  );
}

/**
 * Strict mode makes the model fill optional parameters with null; the tool's own schema calls them optional, so the
 * nulls are taken out (of the arguments as JSON; arguments that cannot be read are left for the tool's call to report).
 */
export function argumentsWithoutOptionalNulls(rawArguments: string, schema: Schema): string {
  const parsed = parseToolArguments(rawArguments);
  return parsed.ok ? JSON.stringify(withoutOptionalNulls(parsed.value, schema)) : rawArguments;
}
