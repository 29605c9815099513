import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js';
import { cliEnv, runCli } from '../support/cli.js';
import { classify, finish, planActScript } from '../flow/flow-script.js';

let llm: FakeLlm | undefined;
let dataDir = '';
afterEach(async () => {
  await llm?.close();
  llm = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('Plan-Act limits from `manus config set`', () => {
  it('planAct.maxReplans 0 ends a flow at its first failed step with the reason; a bad value is refused', async () => {
    llm = await startFakeLlm(
      planActScript({
        step: (step) => finish(JSON.stringify({ success: false, result: `step ${step.id} broke`, attachments: [] })),
        summary: () => ({ text: '{"message": "Nothing was done.", "attachments": []}' }),
      }),
    );
    dataDir = mkdtempSync(join(tmpdir(), 'manus-plan-act-config-'));
    const env = cliEnv(dataDir, llm.baseUrl);

    const refused = await runCli(['config', 'set', 'planAct.maxReplans', '-1'], env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('planAct.maxReplans');

    expect((await runCli(['config', 'set', 'planAct.maxReplans', '0'], env)).code).toBe(0);
    expect((await runCli(['config', 'get', 'planAct.maxReplans'], env)).stdout.trim()).toBe('0');

    const flow = await runCli(['flow', '--mode', 'plan-act', '--sandbox', 'local', 'Write a report'], env, {
      timeoutMs: 60_000,
    });
    expect(flow.code).not.toBe(0);
    expect(flow.stdout + flow.stderr).toContain(
      'Step a (Collect the numbers) failed: step a broke. The replan limit (0, setting planAct.maxReplans) was reached.',
    );
    // the failed step did not go to the planner: the limit allowed no replan
    const kinds = llm.chatRequests.map((request) => classify(request.body).kind);
    expect(kinds).not.toContain('pa_update');
    expect(kinds.filter((kind) => kind === 'pa_step')).toHaveLength(1);
  });
});
