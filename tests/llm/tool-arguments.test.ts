import { describe, expect, it } from 'vitest';
import {
  jsonNestingDepth,
  MAX_TOOL_ARGUMENT_CHARS,
  MAX_TOOL_ARGUMENT_DEPTH,
  parseToolArguments,
} from '../../src/main/llm/tool-arguments.js';

describe('tool-call arguments', () => {
  it('counts nesting outside strings only, escaped quotes included', () => {
    expect(jsonNestingDepth('{"a": [1, {"b": []}]}')).toBe(4);
    expect(jsonNestingDepth('{"text": "[[[[{{{{ \\" ]]]] [[[["}')).toBe(1);
    expect(jsonNestingDepth('"plain"')).toBe(0);
  });

  it('reads ordinary arguments, and empty ones as no arguments', () => {
    expect(parseToolArguments('{"path": "/workspace/a.txt", "lines": [1, 2]}')).toEqual({
      ok: true,
      value: { path: '/workspace/a.txt', lines: [1, 2] },
    });
    expect(parseToolArguments('  ')).toEqual({ ok: true, value: {} });
  });

  it('refuses, before parsing, arguments nested past the limit or longer than allowed', () => {
    const deepest = `${'['.repeat(MAX_TOOL_ARGUMENT_DEPTH)}${']'.repeat(MAX_TOOL_ARGUMENT_DEPTH)}`;
    expect(parseToolArguments(deepest).ok).toBe(true);
    expect(parseToolArguments(`[${deepest}]`)).toEqual({
      ok: false,
      error: `they nest ${MAX_TOOL_ARGUMENT_DEPTH + 1} levels deep, more than the ${MAX_TOOL_ARGUMENT_DEPTH} allowed`,
    });
    const long = `{"text": "${'x'.repeat(MAX_TOOL_ARGUMENT_CHARS)}"}`;
    expect(parseToolArguments(long)).toEqual({
      ok: false,
      error: `they are ${long.length} characters long, more than the ${MAX_TOOL_ARGUMENT_CHARS} allowed`,
    });
  });

  it('names JSON that does not parse', () => {
    const parsed = parseToolArguments('{"a": ');
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(/^not valid JSON: /);
  });
});
