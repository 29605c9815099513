import { afterEach, describe, expect, it } from 'vitest';
import { sequence } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { stagedFile } from '../support/staged-file.js';
import { saveUploads } from '../../src/main/workspace/workspace-files.js';

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });

let harness: CoreHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("the agent mode's final answer", () => {
  it("carries the images the turn saved in the workspace, not the person's attached ones", async () => {
    harness = await startCoreHarness(
      sequence(
        {
          toolCalls: [
            call('str_replace_editor', { command: 'create', path: '/workspace/chart.png', file_text: 'png' }),
          ],
        },
        { text: 'Here is the chart.', toolCalls: [call('terminate', { status: 'success' })] },
      ),
      { settings: { sandbox: { mode: 'local' } } },
    );
    const { sessionId, done } = harness.service.start(
      { task: 'Chart it' },
      { attach: (workspace) => saveUploads(workspace, [stagedFile('photo.png', 'mine')]) },
    );
    await done;
    const answers = harness.events.filter(
      (event) => event.type === 'message' && event.role === 'assistant' && event.text === 'Here is the chart.',
    );
    expect(answers).toHaveLength(2);
    const [first, whole] = answers;
    expect(whole).toMatchObject({ messageId: first.type === 'message' ? first.messageId : '', delta: false });
    expect(whole.type === 'message' && whole.images?.map((image) => image.path)).toEqual(['chart.png']);
    expect(harness.store.getSession(sessionId)!.status).toBe('finished');
  });
});
