import { afterEach, describe, expect, it } from 'vitest';
import type { Image } from '../../src/shared/events.js';
import { startFakeLlm, type ScriptRequest } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { classify, planActScript, planningScript } from './flow-script.js';

// a 2x2 PNG
const PNG: Image = {
  mimeType: 'image/png',
  data: 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
};
const VISION_MODEL = 'eyes-model';
const DESCRIPTION = 'A sketch of a bar chart with three bars.';

let harness: CoreHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

type Body = ScriptRequest['body'];

function hasImage(body: Body): boolean {
  return JSON.stringify(body.messages).includes(`data:image/png;base64,${PNG.data}`);
}

/** The requests of a kind that start a conversation (a planner's first ask, a step agent's first step). */
function firstRequests(kind: string): Body[] {
  return harness!.llm.chatRequests
    .map((request) => request.body)
    .filter((body) => {
      const classified = classify(body);
      return classified.kind === kind && ('first' in classified ? classified.first : true);
    });
}

describe("the task's images in the flows", () => {
  it('reach the Plan-Act planner and every step agent of a model that sees', async () => {
    harness = await startCoreHarness(planActScript({}), { llmConfig: { model: 'gpt-4o' } });
    const { done } = harness.service.start({ task: 'Chart this sketch', mode: 'plan_act', images: [PNG] });
    expect((await done).status).toBe('finished');
    const creates = firstRequests('pa_create');
    expect(creates.length).toBeGreaterThan(0);
    expect(creates.every(hasImage)).toBe(true);
    const steps = firstRequests('pa_step');
    expect(steps).toHaveLength(2);
    expect(steps.every(hasImage)).toBe(true);
  });

  it("reach the planning flow's planner and step agents as the vision model's description, asked for once", async () => {
    const flow = planningScript();
    const script = (request: ScriptRequest) =>
      request.body.model === VISION_MODEL ? { text: DESCRIPTION } : flow(request);
    const llm = await startFakeLlm(script);
    harness = await startCoreHarness(script, {
      llm,
      settings: {
        llms: {
          eyes: { provider: 'openai', model: VISION_MODEL, apiKey: 'sk-eyes', vision: true, baseUrl: llm.baseUrl },
        },
        visionLlm: 'eyes',
      },
    });
    const { done } = harness.service.start({ task: 'Chart this sketch', mode: 'planning', images: [PNG] });
    expect((await done).status).toBe('finished');
    expect(harness.llm.chatRequests.filter((request) => request.body.model === VISION_MODEL)).toHaveLength(1);
    const plans = firstRequests('plan');
    const steps = firstRequests('step');
    expect(steps.length).toBeGreaterThan(0);
    for (const body of [...plans, ...steps]) {
      expect(hasImage(body)).toBe(false);
      expect(JSON.stringify(body.messages)).toContain(DESCRIPTION);
    }
  });
});
