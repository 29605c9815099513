import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src/shared/events.js';
import { removeSessionSandbox } from '../../src/main/sandbox/session-sandbox.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { call, createPlan, finish, planningScript, textOf } from './flow-script.js';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const CHART_CODE = [
  'import pandas as pd',
  'import matplotlib.pyplot as plt',
  "df = pd.read_csv('/workspace/sales.csv')",
  "print('total', int(df['sales'].sum()), 'best', df.loc[df['sales'].idxmax(), 'month'])",
  'fig, ax = plt.subplots()',
  "ax.plot(df['month'], df['sales'], marker='o')",
  "ax.set_title('Monthly sales'); ax.set_xlabel('month'); ax.set_ylabel('sales')",
  'plt.show()',
].join('\n');

let harness: CoreHarness | undefined;
let sessionId = '';
let workspace = '';
afterEach(async () => {
  if (sessionId) await removeSessionSandbox(sessionId);
  await harness?.close();
  harness = undefined;
  rmSync(workspace, { recursive: true, force: true });
});

describe('the data_analysis agent in a flow (real Docker sandbox)', () => {
  it('runs pandas and matplotlib in the sandbox: the chart is saved in the workspace, returned as an image, and the step ends with a written analysis', async () => {
    workspace = mkdtempSync(join(tmpdir(), 'manus-da-'));
    writeFileSync(join(workspace, 'sales.csv'), 'month,sales\nJan,10\nFeb,25\nMar,40\nApr,30\n');
    harness = await startCoreHarness(
      planningScript({
        plan: () => createPlan('Sales analysis', ['[DATA_ANALYSIS] Chart the monthly sales and analyse the trend']),
        step: (step, request) => {
          if (step.first) return { toolCalls: [call('python_execute', { code: CHART_CODE })] };
          const toolOutput = textOf(
            [...request.body.messages].reverse().find((m: { role: string }) => m.role === 'tool'),
          );
          const stats = /total (\d+) best (\w+)/.exec(toolOutput);
          const figure = /saved to (\S+)\]/.exec(toolOutput)?.[1] ?? 'no figure';
          return finish(
            `Analysis: total sales ${stats?.[1]}, best month ${stats?.[2]}; sales rose to a peak in March, then fell. Chart: ${figure}`,
          );
        },
      }),
    );
    const started = harness.service.start({
      task: 'Analyse sales.csv',
      mode: 'planning',
      agents: ['manus', 'data_analysis'],
      workspace,
    });
    sessionId = started.sessionId;
    const result = await started.done;
    expect(result.status).toBe('finished');

    const events: CoreEvent[] = harness.store.listEvents(sessionId);
    const python = events.find((e) => e.type === 'tool' && e.name === 'python_execute' && e.status !== 'calling');
    expect(python).toMatchObject({ agent: 'data_analysis', status: 'done' });
    const image = python?.type === 'tool' ? python.images?.[0] : undefined;
    expect(image?.mimeType).toBe('image/png');
    expect(Buffer.from(image!.data, 'base64').subarray(0, 4)).toEqual(PNG_MAGIC);
    const savedAt = join(workspace, image!.path!.replace(/^\/workspace\//, ''));
    expect(existsSync(savedAt)).toBe(true);
    expect(readFileSync(savedAt).subarray(0, 4)).toEqual(PNG_MAGIC);

    const [step] = harness.store.plans.list(sessionId)[0].steps;
    expect(step).toMatchObject({ status: 'completed', agent: 'data_analysis' });
    expect(step.notes).toContain('Analysis: total sales 105, best month Mar');
    expect(step.notes).toContain(`Chart: ${image!.path}`);
    // the chart is one of the step's files, and the summary sees it
    expect(step.attachments).toContain(image!.path!.replace(/^\/workspace\//, ''));
    const summary = harness.llm.chatRequests.find((r) =>
      JSON.stringify(r.body.messages).includes('Write the final answer'),
    );
    expect(JSON.stringify(summary?.body.messages)).toContain(`Files: ${step.attachments.join(', ')}`);
    // the final message shows the chart
    const final = events.filter((e) => e.type === 'message' && e.agent === 'planner').at(-1);
    const shown = final?.type === 'message' ? final.images?.[0] : undefined;
    expect(shown).toMatchObject({ mimeType: 'image/png', path: image!.path!.replace(/^\/workspace\//, '') });
    expect(shown?.data).toBe(readFileSync(savedAt).toString('base64'));
  });
});
