/** the deepest nesting of objects and arrays a tool call's arguments may have: real tools need a handful */
export const MAX_TOOL_ARGUMENT_DEPTH = 64;
/** the longest a tool call's arguments may be (a file written whole fits; a flood does not) */
export const MAX_TOOL_ARGUMENT_CHARS = 4_000_000;

export type ParsedToolArguments = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * The deepest nesting of `{`/`[` in JSON text, counted outside strings in one pass without recursion, so text too
 * deep for the recursive code after JSON.parse (validation, redaction, stringify) is refused before it gets there.
 */
export function jsonNestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (inString) {
      if (char === 0x5c) at++;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (char === 0x7d || char === 0x5d) depth--;
  }
  return deepest;
}

/** A model's tool-call arguments as a value, or why they cannot be read safely (a tool error the model reads). */
export function parseToolArguments(raw: string): ParsedToolArguments {
  if (raw.length > MAX_TOOL_ARGUMENT_CHARS) {
    return {
      ok: false,
      error: `they are ${raw.length} characters long, more than the ${MAX_TOOL_ARGUMENT_CHARS} allowed`,
    };
  }
  const depth = jsonNestingDepth(raw);
  if (depth > MAX_TOOL_ARGUMENT_DEPTH) {
    return { ok: false, error: `they nest ${depth} levels deep, more than the ${MAX_TOOL_ARGUMENT_DEPTH} allowed` };
  }
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (error) {
    return { ok: false, error: `not valid JSON: ${(error as Error).message}` };
  }
}
