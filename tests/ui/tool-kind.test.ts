import { describe, expect, it } from 'vitest';
import { lineDiff, parseSearchResults, toolKind, toolSummary } from '../../src/renderer/src/lib/tool-kind.js';
import { recogniseProblem } from '../../src/renderer/src/lib/problems.js';
import { wrapUntrusted } from '../../src/main/browser/untrusted-content.js';

describe('tool views', () => {
  it('picks the view from the tool name', () => {
    expect(toolKind('python_execute')).toBe('python');
    expect(toolKind('bash')).toBe('bash');
    expect(toolKind('str_replace_editor')).toBe('file');
    expect(toolKind('browser_use')).toBe('browser');
    expect(toolKind('web_search')).toBe('search');
    expect(toolKind('mcp_everything_echo')).toBe('mcp');
    expect(toolKind('terminate')).toBe('generic');
  });

  it('summarises a call in one line', () => {
    expect(toolSummary('python_execute', { code: '\nimport math\nprint(math.pi)' })).toBe('import math');
    expect(toolSummary('bash', { command: 'ls -la' })).toBe('ls -la');
    expect(toolSummary('browser_use', { action: 'go_to_url', url: 'https://example.org' })).toBe(
      'go_to_url https://example.org',
    );
    expect(toolSummary('terminate', { status: 'success' })).toBe('{"status":"success"}');
  });

  it('reads search results from JSON and from the text form', () => {
    expect(
      parseSearchResults(JSON.stringify([{ title: 'A', url: 'https://a.example', description: 'about a' }])),
    ).toEqual([{ title: 'A', url: 'https://a.example', snippet: 'about a' }]);
    const text =
      'Search results for "x":\n\n1. Alpha\n   URL: https://alpha.example/page\n   Description: first\n\n2. Beta\n   URL: https://beta.example\n';
    expect(parseSearchResults(text)).toEqual([
      { title: 'Alpha', url: 'https://alpha.example/page', snippet: 'first' },
      { title: 'Beta', url: 'https://beta.example', snippet: '' },
    ]);
    expect(parseSearchResults('no links here')).toEqual([]);
    const fromTool = `2 results for "x" from duckduckgo:\n${wrapUntrusted(
      '1. Alpha page\n   URL: https://alpha.example/\n   About alpha.\n\n2. Beta page\n   URL: https://beta.example/',
    )}`;
    expect(parseSearchResults(fromTool)).toEqual([
      { title: 'Alpha page', url: 'https://alpha.example/', snippet: 'About alpha.' },
      { title: 'Beta page', url: 'https://beta.example/', snippet: '' },
    ]);
  });

  it('diffs an edit by lines', () => {
    expect(lineDiff('a\nb\nc', 'a\nB\nc\nd')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'B' },
      { kind: 'same', text: 'c' },
      { kind: 'added', text: 'd' },
    ]);
  });

  it('recognises the first problems people hit', () => {
    expect(recogniseProblem('run_failed', 'No language model is configured.')).toBe('no_key');
    expect(recogniseProblem('llm_error', '401 Incorrect API key provided')).toBe('no_key');
    expect(recogniseProblem('run_failed', 'Connection error. connect ECONNREFUSED 127.0.0.1:11434')).toBe(
      'endpoint_down',
    );
    expect(recogniseProblem('sandbox_unavailable', 'Cannot connect to the Docker daemon')).toBe('docker_missing');
    expect(recogniseProblem('agent_stuck', 'The agent repeated itself')).toBeUndefined();
  });
});
