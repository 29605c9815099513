/**
 * What providers refuse in a tool's parameter schema, as checkers: OpenAI's strict mode (Structured Outputs) and
 * Gemini's function declarations (an OpenAPI 3.0 subset). Each returns the problems found, with their paths.
 */
export type ToolSchemaRules = 'openai-strict' | 'gemini';

type Schema = Record<string, unknown>;

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

const STRICT_KEYWORDS = new Set([
  'type',
  'description',
  'title',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  'pattern',
  'format',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'minItems',
  'maxItems',
]);
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
const STRICT_MAX_DEPTH = 10;

const GEMINI_KEYWORDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'anyOf',
  'propertyOrdering',
  'items',
  'minimum',
  'maximum',
]);
const GEMINI_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array']);
const GEMINI_FORMATS: Record<string, ReadonlySet<string>> = {
  string: new Set(['enum', 'date-time']),
  number: new Set(['float', 'double']),
  integer: new Set(['int32', 'int64']),
};

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typesOf(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.filter((type): type is string => typeof type === 'string') : [];
}

/** Problems OpenAI's strict mode reports for this function-parameters schema. */
export function strictModeProblems(root: unknown): string[] {
  const problems: string[] = [];
  if (!isSchema(root) || root.type !== 'object') problems.push('(root): must be an object schema');
  const visit = (node: unknown, path: string, depth: number) => {
    if (!isSchema(node)) return problems.push(`${path}: a schema must be an object, got ${JSON.stringify(node)}`);
    if (depth > STRICT_MAX_DEPTH) problems.push(`${path}: nested deeper than ${STRICT_MAX_DEPTH} levels`);
    for (const key of Object.keys(node)) {
      if (!STRICT_KEYWORDS.has(key)) problems.push(`${path}: keyword "${key}" is not supported in strict mode`);
    }
    for (const type of typesOf(node)) if (!JSON_TYPES.has(type)) problems.push(`${path}: unknown type "${type}"`);
    if (typeof node.format === 'string' && !STRICT_FORMATS.has(node.format)) {
      problems.push(`${path}: format "${node.format}" is not supported`);
    }
    const properties = isSchema(node.properties) ? node.properties : undefined;
    if (typesOf(node).includes('object') || properties) {
      if (node.additionalProperties !== false) problems.push(`${path}: additionalProperties must be false`);
      const required = new Set(Array.isArray(node.required) ? node.required : []);
      for (const name of Object.keys(properties ?? {})) {
        if (!required.has(name))
          problems.push(`${path}.${name}: every property must be required (nullable if optional)`);
      }
    }
    for (const [name, child] of Object.entries(properties ?? {})) visit(child, `${path}.${name}`, depth + 1);
    if (typesOf(node).includes('array') && !isSchema(node.items))
      problems.push(`${path}: an array needs an items schema`);
    if (node.items !== undefined) visit(node.items, `${path}[]`, depth + 1);
    if (node.anyOf !== undefined) {
      if (path === '(root)') problems.push('(root): the root may not be anyOf');
      if (!Array.isArray(node.anyOf)) problems.push(`${path}: anyOf must be a list`);
      else node.anyOf.forEach((member, at) => visit(member, `${path}|${at}`, depth + 1));
    }
    for (const defs of [node.$defs, node.definitions]) {
      if (isSchema(defs)) for (const [name, child] of Object.entries(defs)) visit(child, `#/${name}`, depth + 1);
    }
  };
  visit(root, '(root)', 0);
  return problems;
}

/** Problems Gemini reports for this function-parameters schema (its OpenAI endpoint answers 400 with them). */
export function geminiProblems(root: unknown): string[] {
  const problems: string[] = [];
  const visit = (node: unknown, path: string) => {
    if (!isSchema(node)) return problems.push(`${path}: a schema must be an object, got ${JSON.stringify(node)}`);
    for (const key of Object.keys(node)) {
      if (!GEMINI_KEYWORDS.has(key)) problems.push(`${path}: Invalid JSON payload received. Unknown name "${key}"`);
    }
    if (node.type !== undefined && (typeof node.type !== 'string' || !GEMINI_TYPES.has(node.type))) {
      problems.push(`${path}: type must be one of ${[...GEMINI_TYPES].join(', ')}, got ${JSON.stringify(node.type)}`);
    }
    if (node.format !== undefined) {
      const allowed = GEMINI_FORMATS[String(node.type)];
      if (!allowed?.has(String(node.format)))
        problems.push(`${path}: format "${String(node.format)}" is not supported`);
    }
    if (node.enum !== undefined) {
      if (node.type !== 'string') problems.push(`${path}: enum is only supported for strings`);
      if (!Array.isArray(node.enum) || node.enum.some((value) => typeof value !== 'string')) {
        problems.push(`${path}: enum values must be strings`);
      }
    }
    const properties = isSchema(node.properties) ? node.properties : undefined;
    for (const name of Array.isArray(node.required) ? node.required : []) {
      if (!properties || !(String(name) in properties))
        problems.push(`${path}: required "${String(name)}" is not a property`);
    }
    for (const [name, child] of Object.entries(properties ?? {})) visit(child, `${path}.${name}`);
    if (node.type === 'array' && !isSchema(node.items)) problems.push(`${path}: an array needs an items schema`);
    if (node.items !== undefined) visit(node.items, `${path}[]`);
    if (node.anyOf !== undefined) {
      if (!Array.isArray(node.anyOf)) problems.push(`${path}: anyOf must be a list`);
      else node.anyOf.forEach((member, at) => visit(member, `${path}|${at}`));
    }
  };
  visit(root, '(root)');
  return problems;
}

export function schemaProblems(rules: ToolSchemaRules, schema: unknown): string[] {
  return rules === 'gemini' ? geminiProblems(schema) : strictModeProblems(schema);
}
