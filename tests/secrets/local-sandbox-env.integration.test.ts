import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashTool } from '../../src/main/tool/bash.js';
import { pythonExecuteTool } from '../../src/main/tool/python-execute.js';
import { createToolContext, type TestToolContext } from '../support/tool-context.js';
import { call } from '../sandbox/sandbox-test-kit.js';

/** Secrets the app process holds in its environment; the agent's local code must see none of them. */
const APP_SECRETS: Record<string, string> = {
  MANUS_LLM_API_KEY: 'manus-llm-key-4f1c9a',
  OPENAI_API_KEY: 'sk-openai-key-0123456789abcdef',
  GITHUB_TOKEN: 'ghp-token-value-77aa',
  MANUS_A2A_TOKEN: 'a2a-token-value-91bd',
  MANUS_MCP_TOKEN: 'mcp-token-value-c3d2',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-value-5e6f',
};

describe('sandbox mode "local": the agent code does not inherit the app environment', () => {
  let ctx: TestToolContext;
  const previous: Record<string, string | undefined> = {};

  beforeAll(() => {
    for (const [name, value] of Object.entries(APP_SECRETS)) {
      previous[name] = process.env[name];
      process.env[name] = value;
    }
    ctx = createToolContext({ settings: { sandbox: { mode: 'local' } } });
  });
  afterAll(async () => {
    await ctx.session.release();
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  function expectNoAppSecret(dump: string): void {
    for (const [name, value] of Object.entries(APP_SECRETS)) {
      expect(dump).not.toContain(name);
      expect(dump).not.toContain(value);
    }
  }

  it("python's os.environ holds none of the app's keys and tokens, but what programs need", async () => {
    await call(
      pythonExecuteTool,
      { code: 'import os, json\nopen("py-env.json", "w").write(json.dumps(dict(os.environ)))' },
      ctx,
    );
    const environ = JSON.parse(readFileSync(join(ctx.workspace, 'py-env.json'), 'utf8')) as Record<string, string>;
    expectNoAppSecret(JSON.stringify(environ));
    // a python launcher (pyenv's shim) may put its own folder first
    expect(environ.PATH).toContain(process.env.PATH);
    expect(environ.HOME).toBe(process.env.HOME);
    expect(environ.MANUS_WORKSPACE).toBe(ctx.workspace);
  });

  it("bash's env holds none of them either", async () => {
    const result = await call(bashTool, { command: 'env > bash-env.txt; env | wc -l' }, ctx);
    expect(result.output).toContain('[exit code 0]');
    const environ = readFileSync(join(ctx.workspace, 'bash-env.txt'), 'utf8');
    expectNoAppSecret(environ);
    expect(environ).toMatch(/^PATH=.+/m);
    expect(environ).toContain(`${process.env.PATH}`);
  });
});
