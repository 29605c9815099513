import { describe, expect, it } from 'vitest';
import { toolSummary } from '../../src/renderer/src/lib/tool-args.js';
import { lineDiff } from '../../src/renderer/src/lib/line-diff.js';
import { recogniseProblem } from '../../src/renderer/src/lib/problems.js';

describe('tool views', () => {
  it('summarises a call in one line', () => {
    expect(toolSummary('python', { code: '\nimport math\nprint(math.pi)' })).toBe('import math');
    expect(toolSummary('bash', { command: 'ls -la' })).toBe('ls -la');
    expect(toolSummary('file', { command: 'create', path: '/workspace/a.py' })).toBe('create /workspace/a.py');
    expect(toolSummary('browser', { action: 'go_to_url', url: 'https://example.org' })).toBe(
      'go_to_url https://example.org',
    );
    expect(toolSummary('search', { query: 'manus' })).toBe('manus');
    expect(toolSummary('generic', { status: 'success' })).toBe('{"status":"success"}');
    // an MCP tool's arguments are its own: they are shown as they are, whatever their names
    expect(toolSummary('mcp', { command: 'ls' })).toBe('{"command":"ls"}');
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
