/** Marks around a match in search snippets. */
export const MATCH_OPEN = '«';
export const MATCH_CLOSE = '»';

// what the unicode61 tokenizer keeps as part of a token; everything else separates tokens
const TOKEN = /[\p{L}\p{N}\p{M}_]+/gu;

/**
 * Turns what a person typed into an FTS5 expression that cannot be a syntax error: every word becomes a quoted
 * string (so `"`, `*`, `-`, `:`, `AND`, `NEAR(` are plain text) and all words must match. With `lastWordAsPrefix`
 * the last word also matches longer words, for results while typing. Undefined when nothing searchable remains.
 */
export function toFtsQuery(userInput: string, options: { lastWordAsPrefix: boolean }): string | undefined {
  const words = userInput.match(TOKEN);
  if (!words || words.length === 0) return undefined;
  const quoted = words.map((word) => `"${word}"`);
  if (options.lastWordAsPrefix) quoted[quoted.length - 1] += '*';
  return quoted.join(' ');
}
