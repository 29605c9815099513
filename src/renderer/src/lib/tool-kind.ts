import { diffArrays } from 'diff';
/** Which view a tool call opens into, and the pieces of its arguments and output that view needs. */
export type ToolKind = 'python' | 'bash' | 'file' | 'browser' | 'search' | 'mcp' | 'plan' | 'generic';

export function toolKind(name: string): ToolKind {
  if (/^mcp[_:]/i.test(name) || name.includes('__')) return 'mcp';
  if (/python/i.test(name)) return 'python';
  if (/bash|shell|terminal/i.test(name)) return 'bash';
  if (/str_replace|editor|file/i.test(name)) return 'file';
  if (/browser/i.test(name)) return 'browser';
  if (/search/i.test(name)) return 'search';
  if (/^planning$/i.test(name)) return 'plan';
  return 'generic';
}

function field(args: unknown, key: string): unknown {
  return args && typeof args === 'object' ? (args as Record<string, unknown>)[key] : undefined;
}

export function stringField(args: unknown, key: string): string | undefined {
  const value = field(args, key);
  return typeof value === 'string' ? value : undefined;
}

/** One line that says what the call does, for the collapsed card. */
export function toolSummary(name: string, args: unknown): string {
  const kind = toolKind(name);
  const pick =
    kind === 'python'
      ? stringField(args, 'code')
          ?.split('\n')
          .find((line) => line.trim())
      : kind === 'bash'
        ? stringField(args, 'command')
        : kind === 'file'
          ? [stringField(args, 'command'), stringField(args, 'path')].filter(Boolean).join(' ')
          : kind === 'browser'
            ? [
                stringField(args, 'action'),
                stringField(args, 'url') ?? stringField(args, 'query') ?? stringField(args, 'text'),
              ]
                .filter(Boolean)
                .join(' ')
            : kind === 'search'
              ? stringField(args, 'query')
              : undefined;
  if (pick) return pick;
  try {
    return JSON.stringify(args) ?? '';
  } catch {
    return '';
  }
}

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

const URL_PATTERN = /https?:\/\/[^\s"'<>)\]]+/;

/**
 * Search output as results: a JSON list when the tool returned one, else blocks of text where each block
 * holds a URL (the web_search tool's readable format).
 */
export function parseSearchResults(output: string | undefined): SearchResult[] {
  if (!output) return [];
  try {
    const parsed: unknown = JSON.parse(output);
    const list = Array.isArray(parsed) ? parsed : field(parsed, 'results');
    if (Array.isArray(list)) {
      return list.flatMap((entry) => {
        const url = stringField(entry, 'url') ?? stringField(entry, 'link');
        if (!url) return [];
        return [
          {
            url,
            title: stringField(entry, 'title') ?? url,
            snippet: stringField(entry, 'description') ?? stringField(entry, 'snippet') ?? '',
          },
        ];
      });
    }
  } catch {
    // not JSON: read the text form below
  }
  const results: SearchResult[] = [];
  for (const block of output.split(/\n\s*\n|\n(?=\s*\d+\.\s)/)) {
    const url = block.match(URL_PATTERN)?.[0];
    if (!url) continue;
    const lines = block
      .split('\n')
      .map((line) => line.trim())
      // the fence the search tool puts around page text is for the model, not the reader
      .filter((line) => line && !/^<\/?untrusted_page_content/.test(line));
    const titleLine = lines.find((line) => !line.includes(url)) ?? url;
    const title = titleLine.replace(/^\d+\.\s*/, '').replace(/^(title|Title):\s*/, '');
    const snippet = lines
      .filter((line) => line !== titleLine && !line.includes(url))
      .join(' ')
      .replace(/^(description|Description):\s*/, '');
    results.push({ title, url, snippet });
  }
  return results;
}

export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** A line diff of two texts, one entry a line. */
export function lineDiff(before: string, after: string): DiffLine[] {
  return diffArrays(before.split('\n'), after.split('\n')).flatMap((change) =>
    change.value.map(
      (text) => ({ kind: change.added ? 'added' : change.removed ? 'removed' : 'same', text }) as DiffLine,
    ),
  );
}
