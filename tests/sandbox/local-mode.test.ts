import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashTool } from '../../src/main/tool/bash.js';
import { pythonExecuteTool } from '../../src/main/tool/python-execute.js';
import { createToolContext, type TestToolContext } from '../support/tool-context.js';
import { call } from './sandbox-test-kit.js';

describe('sandbox mode "local" (explicit opt-in, no Docker)', () => {
  let ctx: TestToolContext;

  beforeAll(() => {
    ctx = createToolContext({ settings: { sandbox: { mode: 'local' } } });
  });
  afterAll(async () => {
    await ctx.session.release();
  });

  it('runs python and bash on the host inside the workspace folder, with state kept', async () => {
    await call(pythonExecuteTool, { code: 'import os\ncounter = 1\nopen("local.txt", "w").write(os.getcwd())' }, ctx);
    expect(readFileSync(join(ctx.workspace, 'local.txt'), 'utf8')).toBe(realpathSync(ctx.workspace));
    const again = await call(pythonExecuteTool, { code: 'counter + 1' }, ctx);
    expect(again.output).toBe('2');
    const shell = await call(bashTool, { command: 'cat local.txt; echo; export K=v' }, ctx);
    expect(shell.output).toContain(realpathSync(ctx.workspace));
    expect((await call(bashTool, { command: 'echo $K' }, ctx)).output).toBe('v\n[exit code 0]');
  });

  it('warns once per session that nothing is isolated', () => {
    const warnings = ctx.events.filter((event) => event.type === 'notice' && event.code === 'local_sandbox');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 'warning', sessionId: ctx.sessionId });
  });
});
