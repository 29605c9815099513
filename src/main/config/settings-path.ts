/** Reading and writing one value of a nested settings object by a dotted path (`sandbox.network`). */

export function getPath(root: unknown, path: string): unknown {
  let node = root;
  for (const part of splitPath(path)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** A copy of `root` with the value at `path` replaced (`undefined` removes it). */
export function setPath<T>(root: T, path: string, value: unknown): T {
  const parts = splitPath(path);
  const copy = structuredClone(root ?? {}) as Record<string, unknown>;
  let node = copy;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    node[part] = next !== null && typeof next === 'object' ? next : {};
    node = node[part] as Record<string, unknown>;
  }
  const last = parts.at(-1)!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy as T;
}

function splitPath(path: string): string[] {
  const parts = path.split('.').filter(Boolean);
  if (parts.length === 0) throw new Error('A settings key is needed, such as llm.model or sandbox.network.');
  for (const part of parts)
    if (['__proto__', 'constructor', 'prototype'].includes(part)) throw new Error(`"${part}" is not a settings key.`);
  return parts;
}

/** A command-line value: JSON when it parses (numbers, booleans, arrays), else the plain string. */
export function parseSettingValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
