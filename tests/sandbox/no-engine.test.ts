import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestToolContext } from '../support/tool-context.js';
import { createToolContext } from '../support/tool-context.js';

describe('no Docker engine reachable', () => {
  const previous = process.env.DOCKER_HOST;
  let ctx: TestToolContext;
  let tools: typeof import('../../src/main/tool/python-execute.js') & typeof import('../../src/main/tool/bash.js');

  beforeAll(async () => {
    // each test file has its own module registry, so the shared client here is made with this DOCKER_HOST
    process.env.DOCKER_HOST = 'unix:///nonexistent/docker.sock';
    tools = {
      ...(await import('../../src/main/tool/python-execute.js')),
      ...(await import('../../src/main/tool/bash.js')),
    };
    ctx = createToolContext();
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.DOCKER_HOST;
    else process.env.DOCKER_HOST = previous;
  });

  it('python_execute and bash return a clear error saying how to start Docker', async () => {
    const python = await tools.pythonExecuteTool.execute({ code: 'print(1)' }, ctx);
    const bash = await tools.bashTool.execute({ command: 'echo 1' }, ctx);
    for (const result of [python, bash]) {
      expect(result.output).toBeUndefined();
      expect(result.error).toMatch(/Docker engine is not reachable/);
      expect(result.error).toMatch(/systemctl start docker|Docker Desktop/);
      expect(result.error).toMatch(/sandbox\.mode/);
    }
  });
});
