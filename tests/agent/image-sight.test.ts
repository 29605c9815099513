import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent, Image } from '../../src/shared/events.js';
import { AppSettingsSchema } from '../../src/shared/settings/app-settings.js';
import type { LlmConfigInput } from '../../src/shared/settings/llm-config.js';
import { createLlm } from '../../src/main/llm/client.js';
import { createImageDescriber } from '../../src/main/llm/image-description.js';
import { defineTool, toolOutput, type AnyTool } from '../../src/main/tool/tool.js';
import { startFakeLlm, type FakeReply, type ScriptRequest } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { waitFor } from '../support/wait-for.js';

// a 2x2 PNG
const PNG: Image = {
  mimeType: 'image/png',
  data: 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  path: 'shots/badge.png',
};
const VISION_MODEL = 'eyes-model';
const VISION_PROVIDER = {
  provider: 'openai' as const,
  model: VISION_MODEL,
  apiKey: 'sk-eyes',
  vision: true,
  maxAttempts: 1,
};

/** A tool that returns an image, as a screenshot or chart tool does. */
const snapshotTool = defineTool({
  name: 'snapshot',
  kind: 'generic',
  description: 'Takes a picture of the badge.',
  parameters: z.object({}),
  risk: 'read',
  async execute() {
    return toolOutput('snapshot taken', { images: [PNG] });
  },
}) as AnyTool;

type Body = { model: string; messages: { role: string; content: unknown }[] };
type Part = { type: string; text?: string; image_url?: { url: string; detail?: string } };

/** The scripted server plays both models: requests for the vision model go to `eyes`, the rest to `main`. */
function twoModels(
  main: (body: Body, step: number) => FakeReply,
  eyes: (body: Body, call: number) => FakeReply | Promise<FakeReply>,
) {
  let mainStep = 0;
  let eyesCall = 0;
  return (request: ScriptRequest) =>
    request.body.model === VISION_MODEL ? eyes(request.body, eyesCall++) : main(request.body, mainStep++);
}

const snapshot = { toolCalls: [{ name: 'snapshot', arguments: {} }] };
const finish = (text: string) => ({ text, toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] });

function toolMessages(body: Body): string[] {
  return body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
}

function imageParts(body: Body): Part[] {
  return body.messages
    .flatMap((m) => (Array.isArray(m.content) ? (m.content as Part[]) : []))
    .filter((p) => p.image_url);
}

function notices(harness: CoreHarness, code: string): string[] {
  return harness.events.flatMap((e: CoreEvent) => (e.type === 'notice' && e.code === code ? [e.text] : []));
}

let harness: CoreHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The core with the snapshot tool; `vision` is the vision provider, on the same scripted server. */
async function start(
  script: (request: ScriptRequest) => FakeReply | Promise<FakeReply>,
  settings: Record<string, unknown> = {},
  vision: LlmConfigInput | null = VISION_PROVIDER,
) {
  const llm = await startFakeLlm(script);
  harness = await startCoreHarness(script, {
    llm,
    service: { extraTools: () => [snapshotTool] },
    settings: {
      ...settings,
      ...(vision ? { llms: { eyes: { ...vision, baseUrl: llm.baseUrl } }, visionLlm: 'eyes' } : {}),
    },
  });
  return harness;
}

describe('images for a main model that cannot see', () => {
  it('sends a tool image to the vision model and gives the main model its description, marked as one', async () => {
    const seen: Body[] = [];
    const h = await start(
      twoModels(
        (body, step) => {
          seen.push(body);
          return step === 0 ? snapshot : finish('The badge is green.');
        },
        () => ({ text: 'A green square badge with the word OK.' }),
      ),
      { imageDetail: 'high' },
    );
    const { done } = h.service.start({ task: 'What colour is the badge?' });
    expect(await done).toMatchObject({ status: 'finished', result: 'The badge is green.' });

    const eyesRequests = h.llm.chatRequests.filter((r) => r.body.model === VISION_MODEL);
    expect(eyesRequests).toHaveLength(1);
    const [part] = imageParts(eyesRequests[0]!.body as Body);
    expect(part!.image_url).toEqual({ url: `data:image/png;base64,${PNG.data}`, detail: 'high' });
    expect(JSON.stringify(eyesRequests[0]!.body.messages)).toContain('This image comes from snapshot.');

    // the main model never receives the image, only the description in the tool result
    expect(seen.every((body) => imageParts(body).length === 0)).toBe(true);
    const [result] = toolMessages(seen[1]!);
    expect(result).toContain('snapshot taken');
    expect(result).toContain(
      '[Description of image 1 of 1 (shots/badge.png) from snapshot, written by the vision model eyes-model because test-model cannot see images:]\nA green square badge with the word OK.\n[End of the description]',
    );
    expect(notices(h, 'image_dropped')).toEqual([]);
  });

  it('a vision model that fails or does not answer in time leaves a note and the run goes on', async () => {
    const seen: Body[] = [];
    const h = await start(
      twoModels(
        (body, step) => {
          seen.push(body);
          return step < 2 ? snapshot : finish('Could not see the badge.');
        },
        (_body, call) =>
          call === 0 ? { fault: 'status', status: 400, message: 'image format refused' } : { fault: 'hang' },
      ),
      {},
      { ...VISION_PROVIDER, requestTimeoutMs: 300 },
    );
    const { done } = h.service.start({ task: 'Look at the badge twice' });
    expect(await done).toMatchObject({ status: 'finished' });

    const [first] = toolMessages(seen[1]!);
    expect(first).toMatch(
      /\[image 1 of 1 \(shots\/badge\.png\) from snapshot could not be described: the vision model eyes-model failed: .*image format refused.*The person sees it; you do not\.\]/,
    );
    const second = toolMessages(seen[2]!)[1];
    expect(second).toContain(
      '[image 1 of 1 (shots/badge.png) from snapshot could not be described: the vision model eyes-model did not answer within 300 ms.',
    );
    expect(notices(h, 'image_description_failed')).toHaveLength(2);
  });

  it('without a vision model the main model is told the image was left out and why, and the person once', async () => {
    const seen: Body[] = [];
    const h = await start(
      twoModels(
        (body, step) => {
          seen.push(body);
          return step < 2 ? snapshot : finish('No eyes.');
        },
        () => ({ text: 'never asked' }),
      ),
      {},
      null,
    );
    const { done } = h.service.start({ task: 'Look at the badge twice' });
    expect(await done).toMatchObject({ status: 'finished' });
    expect(h.llm.chatRequests.some((r) => r.body.model === VISION_MODEL)).toBe(false);
    expect(toolMessages(seen[1]!)[0]).toContain(
      '[1 image(s) from snapshot left out: test-model cannot see images and no vision model is set (Settings → Model providers → Vision model, or `manus config set visionLlm <provider>`)]',
    );
    expect(notices(h, 'image_dropped')).toHaveLength(1);
  });

  it('a visionLlm that names no configured provider is refused where it is set', () => {
    const parsed = AppSettingsSchema.safeParse({ visionLlm: 'gone' });
    expect(parsed.error?.issues).toMatchObject([
      { path: ['visionLlm'], message: '"gone" is not a configured provider (add it under llms first)' },
    ]);
    expect(AppSettingsSchema.safeParse({ visionLlm: 'eyes', llms: { eyes: VISION_PROVIDER } }).success).toBe(true);
  });

  it('a vision model that does not take images is said so, and not asked', async () => {
    const seen: Body[] = [];
    const h = await start(
      twoModels(
        (body, step) => {
          seen.push(body);
          return step === 0 ? snapshot : finish('No eyes.');
        },
        () => ({ text: 'never asked' }),
      ),
      {},
      { ...VISION_PROVIDER, vision: false },
    );
    const { done } = h.service.start({ task: 'Look at the badge' });
    expect(await done).toMatchObject({ status: 'finished' });
    expect(h.llm.chatRequests.some((r) => r.body.model === VISION_MODEL)).toBe(false);
    expect(toolMessages(seen[1]!)[0]).toContain(
      'left out: test-model cannot see images and the vision model "eyes" (eyes-model) does not take images',
    );
  });

  it('a main model that sees gets the image itself, with the detail setting, and no description is asked for', async () => {
    const seen: Body[] = [];
    const script = twoModels(
      (body, step) => {
        seen.push(body);
        return step === 0 ? snapshot : finish('Green.');
      },
      () => ({ text: 'never asked' }),
    );
    const llm = await startFakeLlm(script);
    harness = await startCoreHarness(script, {
      llm,
      service: { extraTools: () => [snapshotTool] },
      settings: { imageDetail: 'low', llms: { eyes: { ...VISION_PROVIDER, baseUrl: llm.baseUrl } }, visionLlm: 'eyes' },
      llmConfig: { vision: true },
    });
    const { done } = harness.service.start({ task: 'What colour is the badge?' });
    expect(await done).toMatchObject({ status: 'finished' });
    expect(harness.llm.chatRequests.some((r) => r.body.model === VISION_MODEL)).toBe(false);
    expect(imageParts(seen[1]!).map((part) => part.image_url)).toEqual([
      { url: `data:image/png;base64,${PNG.data}`, detail: 'low' },
    ]);
    expect(toolMessages(seen[1]!)[0]).not.toContain('Description of');
  });

  it('an image attached to the task is described for a text-only model, and shown to a model that sees', async () => {
    const seen: Body[] = [];
    const h = await start(
      twoModels(
        (body) => {
          seen.push(body);
          return finish('A green badge.');
        },
        () => ({ text: 'A green square badge with the word OK.' }),
      ),
    );
    const blind = h.service.start({ task: 'What is on my picture?', images: [PNG] });
    expect(await blind.done).toMatchObject({ status: 'finished' });
    const asked = seen[0]!.messages.filter((m) => m.role === 'user').at(0)!;
    expect(asked.content).toBe(
      "What is on my picture?\n[Description of image 1 of 1 (shots/badge.png) from the person's message, written by the vision model eyes-model because test-model cannot see images:]\nA green square badge with the word OK.\n[End of the description]",
    );
    expect(imageParts(seen[0]!)).toEqual([]);
  });

  it('an image attached to the task goes to a main model that sees as an image part', async () => {
    const seen: Body[] = [];
    const script = twoModels(
      (body) => {
        seen.push(body);
        return finish('Green.');
      },
      () => ({ text: 'never asked' }),
    );
    harness = await startCoreHarness(script, { llmConfig: { vision: true } });
    const { done } = harness.service.start({ task: 'What is on my picture?', images: [PNG] });
    expect(await done).toMatchObject({ status: 'finished' });
    expect(harness.llm.chatRequests.some((r) => r.body.model === VISION_MODEL)).toBe(false);
    const asked = seen[0]!.messages.filter((m) => m.role === 'user').at(0)!;
    expect(asked.content).toEqual([
      { type: 'text', text: 'What is on my picture?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.data}`, detail: 'auto' } },
    ]);
  });

  it('cancelling the run while the vision model describes stops the description and the run', async () => {
    const h = await start(
      twoModels(
        () => snapshot,
        () => ({ fault: 'hang' }),
      ),
    );
    const { sessionId, done } = h.service.start({ task: 'Look at the badge' });
    await waitFor(() => h.llm.chatRequests.some((r) => r.body.model === VISION_MODEL));
    await h.service.cancel(sessionId);
    expect(await done).toMatchObject({ status: 'cancelled' });
    await waitFor(() => h.llm.requests.find((r) => r.body?.model === VISION_MODEL)?.closedByClient === true);
  });

  it('an image larger than a vision model takes is not sent, and says so', async () => {
    const llm = await startFakeLlm(() => ({ text: 'never asked' }));
    try {
      const describer = createImageDescriber(createLlm({ ...VISION_PROVIDER, baseUrl: llm.baseUrl }), {
        timeoutMs: 5_000,
      });
      const huge: Image = { mimeType: 'image/png', data: 'A'.repeat(28 * 1024 * 1024) };
      await expect(
        describer.describe(huge, { source: 'python_execute', signal: new AbortController().signal }),
      ).rejects.toThrow('the image is 21.0 MB, more than the 20 MB a vision model takes');
      expect(llm.chatRequests).toHaveLength(0);
    } finally {
      await llm.close();
    }
  });
});
