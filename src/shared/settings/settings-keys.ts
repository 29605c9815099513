import { z } from 'zod';

/** A dotted settings key the schema does not know, with the known key nearest to it. */
export interface UnknownSettingsKey {
  key: string;
  closest?: string;
}

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  out?: z.ZodType;
  entries?: Record<string, unknown>;
};

const WRAPPERS = new Set(['default', 'optional', 'nullable', 'prefault', 'readonly', 'catch', 'nonoptional']);
const RECORD_SLOT = '<name>';

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** The schema under defaults, optionals and pipes: the object, record or leaf a key is looked up in. */
function unwrap(schema: z.ZodType): z.ZodType {
  let node = schema;
  for (;;) {
    const def = defOf(node);
    if (WRAPPERS.has(def.type) && def.innerType) node = def.innerType;
    // a preprocess is a pipe from a transform: its keys are those of what it feeds
    else if (def.type === 'pipe' && def.in && def.out) node = defOf(def.in).type === 'transform' ? def.out : def.in;
    else return node;
  }
}

/** The schemas `part` leads to under `schema` (several under a union); empty when `part` is not a key there. */
function childrenOf(schema: z.ZodType, part: string): z.ZodType[] {
  const node = unwrap(schema);
  const def = defOf(node);
  if (def.type === 'object') return def.shape && Object.hasOwn(def.shape, part) ? [def.shape[part]] : [];
  if (def.type === 'record') {
    const keyDef = def.keyType ? defOf(unwrap(def.keyType)) : undefined;
    if (keyDef?.type === 'enum' && keyDef.entries && !Object.hasOwn(keyDef.entries, part)) return [];
    return def.valueType ? [def.valueType] : [];
  }
  if (def.type === 'union') return (def.options ?? []).flatMap((option) => childrenOf(option, part));
  return [];
}

/** Every key under `schema`, dotted; a record's key is the one `wanted` names at that depth, else `<name>`. */
function knownKeys(schema: z.ZodType, wanted: string[], depth = 0, prefix = ''): string[] {
  const def = defOf(unwrap(schema));
  const join = (part: string) => (prefix ? `${prefix}.${part}` : part);
  if (def.type === 'object' && def.shape)
    return Object.entries(def.shape).flatMap(([part, child]) => [
      join(part),
      ...knownKeys(child, wanted, depth + 1, join(part)),
    ]);
  if (def.type === 'record' && def.valueType) {
    const keyDef = def.keyType ? defOf(unwrap(def.keyType)) : undefined;
    const parts =
      keyDef?.type === 'enum' && keyDef.entries ? Object.keys(keyDef.entries) : [wanted[depth] ?? RECORD_SLOT];
    return parts.flatMap((part) => [join(part), ...knownKeys(def.valueType!, wanted, depth + 1, join(part))]);
  }
  if (def.type === 'union')
    return [...new Set((def.options ?? []).flatMap((option) => knownKeys(option, wanted, depth, prefix)))];
  return [];
}

/** Edit distance between two keys (src/shared imports nothing but zod, so it is written here). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}

function closestKey(key: string, known: string[]): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (!best || distance < best.distance) best = { key: candidate, distance };
  }
  return best?.key;
}

/** `key` (dotted) when `schema` has no such key, with the nearest one it has; undefined when the key is known. */
export function findUnknownKey(schema: z.ZodType, key: string): UnknownSettingsKey | undefined {
  const parts = key.split('.').filter(Boolean);
  let nodes = [schema];
  for (const part of parts) {
    nodes = nodes.flatMap((node) => childrenOf(node, part));
    if (nodes.length === 0) return { key, closest: closestKey(key, knownKeys(schema, parts)) };
  }
  return undefined;
}

/** Every key of the plain object `value` that `schema` does not know (a value the form or a client sent). */
export function findUnknownKeys(schema: z.ZodType, value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([part, child]) => {
    const key = prefix ? `${prefix}.${part}` : part;
    const known = childrenOf(schema, part);
    if (known.length === 0) return [key];
    // under a union, a key one option knows is known; its own keys are checked against that option
    const misses = known.map((node) => findUnknownKeys(node, child, key));
    return misses.reduce((fewest, next) => (next.length < fewest.length ? next : fewest));
  });
}

/** The sentence for an unknown key, naming the closest known one. */
export function describeUnknownKey(schema: z.ZodType, key: string): string {
  const unknown = findUnknownKey(schema, key);
  const hint = unknown?.closest ? ` Did you mean "${unknown.closest}"?` : '';
  return `"${key}" is not a setting.${hint}`;
}

/**
 * `schema` refusing keys it does not know (zod strips them silently, so a typo would be dropped), each with the
 * nearest known key; its input and output types are the schema's own.
 */
export function rejectingUnknownKeys<S extends z.ZodType>(schema: S): z.ZodType<z.output<S>, z.input<S>> {
  const checked = z.preprocess((raw, ctx) => {
    for (const key of findUnknownKeys(schema, raw))
      ctx.issues.push({ code: 'custom', message: describeUnknownKey(schema, key), input: raw, path: key.split('.') });
    return raw;
  }, schema);
  // the preprocess's input type is unknown; what it accepts is exactly what `schema` accepts
  return checked as unknown as z.ZodType<z.output<S>, z.input<S>>;
}
