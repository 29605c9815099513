import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_AGENTS } from '../../src/main/agent/agent-catalog.js';
import { planningTool } from '../../src/main/flow/planning-tool.js';
import { argumentsWithoutOptionalNulls } from '../../src/main/llm/schema-dialects.js';
import { toWireTools } from '../../src/main/llm/wire-format.js';
import { openStore, type Store } from '../../src/main/store/store.js';
import { builtinTools } from '../../src/main/tool/builtin-tools.js';
import { toolSpec } from '../../src/main/tool/tool-collection.js';
import type { ToolSpec } from '../../src/main/llm/types.js';
import { geminiProblems, sequence, startFakeLlm, strictModeProblems } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { fakeLlmClient } from './llm-fixture.js';

let dataDir: string;
let store: Store;
let specs: ToolSpec[];
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'manus-schemas-'));
  store = openStore(dataDir);
  // every tool an agent or a flow can offer: the registry's built-in tools and the planning flow's tool
  const tools = [...Object.values(builtinTools), planningTool(store.plans, Object.keys(BUILTIN_AGENTS))];
  specs = tools.map(toolSpec);
});
afterAll(() => {
  store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function problemsByTool(check: (schema: unknown) => string[], wire: ReturnType<typeof toWireTools>) {
  return Object.fromEntries(wire.map((tool) => [tool.function.name, check(tool.function.parameters ?? {})]));
}

describe('built-in tool schemas under the providers’ rule sets', () => {
  it('the rule checkers refuse the schemas as zod writes them (so the conversion is needed)', () => {
    expect(specs.length).toBeGreaterThanOrEqual(Object.keys(builtinTools).length + 1);
    const plain = toWireTools(specs);
    expect(Object.values(problemsByTool(strictModeProblems, plain)).flat().length).toBeGreaterThan(0);
    expect(Object.values(problemsByTool(geminiProblems, plain)).flat().length).toBeGreaterThan(0);
  });

  it('every built-in tool is valid under OpenAI strict mode, and sent as strict', () => {
    const wire = toWireTools(specs, 'openai-strict');
    const problems = problemsByTool(strictModeProblems, wire);
    expect(problems).toEqual(Object.fromEntries(specs.map((spec) => [spec.name, []])));
    expect(wire.every((tool) => tool.function.strict === true)).toBe(true);
  });

  it('every built-in tool is accepted by Gemini', () => {
    const problems = problemsByTool(geminiProblems, toWireTools(specs, 'gemini'));
    expect(problems).toEqual(Object.fromEntries(specs.map((spec) => [spec.name, []])));
  });

  it('keeps what the model needs to know: enums, required names, defaults in words', () => {
    const search = specs.find((spec) => spec.name === 'web_search')!;
    const [strict] = toWireTools([search], 'openai-strict');
    const [gemini] = toWireTools([search], 'gemini');
    const strictProperties = strict.function.parameters!.properties as Record<string, Record<string, unknown>>;
    const geminiProperties = gemini.function.parameters!.properties as Record<string, Record<string, unknown>>;
    expect(strictProperties.num_results).toMatchObject({ type: ['integer', 'null'] });
    expect(strictProperties.num_results.description).toContain('(default: 5)');
    expect(strict.function.parameters!.required).toEqual(Object.keys(strictProperties));
    expect(geminiProperties.num_results.description).toContain('(default: 5)');
    expect(gemini.function.parameters!.required).toEqual(['query']);
    const editor = toWireTools([specs.find((spec) => spec.name === 'str_replace_editor')!], 'gemini')[0];
    const command = (editor.function.parameters!.properties as Record<string, Record<string, unknown>>).command;
    expect(command).toMatchObject({ type: 'string', enum: ['view', 'create', 'str_replace', 'insert', 'undo_edit'] });
    expect(JSON.stringify(editor)).not.toContain(String(Number.MAX_SAFE_INTEGER));
  });

  it('converts what MCP servers send too: unions with null, consts, $refs, tuples, numeric enums', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        mode: { const: 'fast' },
        level: { enum: [1, 2, 3], default: 2 },
        when: { type: 'string', format: 'uri' },
        note: { anyOf: [{ type: 'string' }, { type: 'null' }], examples: ['x'] },
        point: { $ref: '#/$defs/point' },
        pair: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false },
      },
      required: ['mode', 'point'],
      $defs: {
        point: { type: 'object', properties: { x: { type: 'number', exclusiveMinimum: 0 } }, required: ['x'] },
      },
    };
    const spec = { name: 'mcp_tool', description: 'from an MCP server', parameters: schema };
    const [strict] = toWireTools([spec], 'openai-strict');
    expect(strictModeProblems(strict.function.parameters)).toEqual([]);
    const [gemini] = toWireTools([spec], 'gemini');
    expect(geminiProblems(gemini.function.parameters)).toEqual([]);
    const properties = gemini.function.parameters!.properties as Record<string, Record<string, unknown>>;
    expect(properties.mode).toEqual({ type: 'string', enum: ['fast'] });
    expect(properties.note).toMatchObject({ type: 'string', nullable: true });
    expect(properties.point).toMatchObject({ type: 'object', properties: { x: { type: 'number', minimum: 0 } } });
    expect(properties.level.description).toMatch(/One of: 1, 2, 3/);
  });

  it('sends a schema strict mode cannot express (a map of any keys) as it is, not strict', () => {
    const schema = {
      type: 'object',
      properties: { env: { type: 'object', additionalProperties: { type: 'string' } } },
    };
    const [wire] = toWireTools([{ name: 'run', description: 'run', parameters: schema }], 'openai-strict');
    expect(wire.function.strict).toBeUndefined();
    expect(wire.function.parameters).toBe(schema);
  });

  it('takes out the nulls strict mode makes the model send for optional parameters', () => {
    const editor = specs.find((spec) => spec.name === 'str_replace_editor')!;
    const sent = JSON.stringify({ command: 'view', path: 'a.txt', file_text: null, view_range: [1, 5], old_str: null });
    expect(JSON.parse(argumentsWithoutOptionalNulls(sent, editor.parameters))).toEqual({
      command: 'view',
      path: 'a.txt',
      view_range: [1, 5],
    });
  });
});

describe('a provider that refuses a strict schema', () => {
  it('sends the tools again without strict, and keeps doing so', async () => {
    const { server, llm } = await fakeLlmClient(
      (request) =>
        request.body.tools.some((tool: { function: { strict?: boolean } }) => tool.function.strict)
          ? {
              fault: 'status',
              status: 400,
              message: "Invalid schema for function 'bash': In context=(), 'minLength' is not permitted.",
            }
          : { toolCalls: [{ name: 'bash', arguments: { command: 'ls' } }] },
      { provider: 'azure', apiKey: 'azure-test-key', maxAttempts: 1 },
    );
    const bash = specs.find((spec) => spec.name === 'bash')!;
    const question = [{ role: 'user' as const, content: 'list' }];
    expect((await llm.askTool(question, { tools: [bash] })).toolCalls[0].name).toBe('bash');
    await llm.askTool(question, { tools: [bash] });
    expect(server.chatRequests.map((r) => Boolean(r.body.tools[0].function.strict))).toEqual([true, false, false]);
  });
});

describe('a run against providers that check tool schemas (scripted server, openai SDK)', () => {
  let harness: CoreHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  const createFile = {
    name: 'str_replace_editor',
    // strict mode fills every optional parameter, with null
    arguments: {
      command: 'create',
      path: '/workspace/out.txt',
      file_text: 'written',
      old_str: null,
      new_str: null,
      insert_line: null,
      view_range: null,
    },
  };
  const finish = { text: 'Done.', toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] };

  it('Gemini (its OpenAI endpoint) accepts every tool of the session and the run succeeds', async () => {
    const llm = await startFakeLlm(undefined, { toolSchemaRules: 'gemini' });
    harness = await startCoreHarness(
      sequence(
        {
          toolCalls: [
            { ...createFile, arguments: { command: 'create', path: '/workspace/out.txt', file_text: 'written' } },
          ],
        },
        finish,
      ),
      {
        llm,
        llmConfig: { model: 'gemini-2.5-flash' },
      },
    );
    const run = harness.service.start({ task: 'write out.txt' });
    expect(await run.done).toMatchObject({ status: 'finished', result: 'Done.' });
    expect(llm.chatRequests).toHaveLength(2);
    expect(llm.chatRequests[0].body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain(
      'str_replace_editor',
    );
  });

  it('OpenAI strict mode (Azure) accepts every tool, and nulls for optional parameters reach the tool as absent', async () => {
    const llm = await startFakeLlm(undefined, { toolSchemaRules: 'openai-strict' });
    harness = await startCoreHarness(sequence({ toolCalls: [createFile] }, finish), {
      llm,
      llmConfig: { provider: 'azure', model: 'gpt-4o', apiKey: 'azure-test-key' },
    });
    const run = harness.service.start({ task: 'write out.txt' });
    expect(await run.done).toMatchObject({ status: 'finished', result: 'Done.' });
    const workspace = harness.store.getSession(run.sessionId)!.workspace;
    expect(readFileSync(join(workspace, 'out.txt'), 'utf8')).toBe('written');
    const tools = llm.chatRequests[0].body.tools as { function: { strict?: boolean } }[];
    expect(tools.every((tool) => tool.function.strict === true)).toBe(true);
  });
});
