import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeSharedBrowsers } from '../../src/main/browser/browser-launcher.js';
import { removeSessionSandbox } from '../../src/main/sandbox/session-sandbox.js';
import type { CoreEvent } from '../../src/shared/events.js';
import { startFakeLlm, type FakeReply, type ScriptRequest } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { htmlPage, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { CHROMIUM } from '../browser/browser-test-kit.js';

const VISION_MODEL = 'eyes-model';
const CHART_CODE = [
  'import matplotlib.pyplot as plt',
  'fig, ax = plt.subplots()',
  "ax.plot(['Jan', 'Feb', 'Mar'], [10, 25, 40], marker='o')",
  "ax.set_title('Monthly sales')",
  'plt.show()',
].join('\n');

type Part = { type: string; image_url?: { url: string; detail?: string } };
type Body = { model: string; messages: { role: string; content: string | Part[] | null }[] };

let server: FixtureServer;
let harness: CoreHarness | undefined;
let sessionId = '';

beforeAll(async () => {
  server = await startFixtureServer({
    '/shop': htmlPage('<h1>Spring sale</h1><p>Everything 20% off</p>', 'Shop'),
  });
});

afterEach(async () => {
  if (sessionId) await removeSessionSandbox(sessionId);
  sessionId = '';
  await harness?.close();
  harness = undefined;
});

afterAll(async () => {
  await closeSharedBrowsers();
  await server?.close();
});

/**
 * The session's model (test-model, text-only) makes one tool call, then reads the tool result and finishes; the
 * scripted server also plays the vision model, describing whatever it is sent.
 */
async function runWithVisionModel(toolCall: { name: string; arguments: object }, description: string) {
  const mainBodies: Body[] = [];
  const script = (request: ScriptRequest): FakeReply => {
    const body = request.body as Body;
    if (body.model === VISION_MODEL) return { text: description };
    mainBodies.push(body);
    if (mainBodies.length === 1) return { toolCalls: [toolCall] };
    return { text: 'Done.', toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] };
  };
  const llm = await startFakeLlm(script);
  harness = await startCoreHarness(script, {
    llm,
    settings: {
      browser: { executablePath: CHROMIUM, allowPrivateNetwork: true },
      llms: { eyes: { model: VISION_MODEL, baseUrl: llm.baseUrl, apiKey: 'sk-eyes', vision: true } },
      visionLlm: 'eyes',
    },
  });
  const started = harness.service.start({ task: 'Look and tell me' });
  sessionId = started.sessionId;
  expect(await started.done).toMatchObject({ status: 'finished' });
  const visionRequests = llm.chatRequests.filter((request) => request.body.model === VISION_MODEL);
  const sentImages = visionRequests.flatMap((request) =>
    (request.body as Body).messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])),
  );
  const toolResult = mainBodies[1]!.messages.filter((m) => m.role === 'tool').at(-1)!.content as string;
  const events = harness.store.listEvents(sessionId) as CoreEvent[];
  const shown = events.find((e) => e.type === 'tool' && e.status === 'done' && e.name === toolCall.name);
  return { mainBodies, sentImages, toolResult, shown };
}

describe('images of real tools for a text-only model, described by the vision model', () => {
  it('a chart the Python code saved (Docker sandbox)', async () => {
    const described = 'A line chart titled "Monthly sales": Jan 10, Feb 25, Mar 40, rising.';
    const { mainBodies, sentImages, toolResult, shown } = await runWithVisionModel(
      { name: 'python_execute', arguments: { code: CHART_CODE } },
      described,
    );
    const chart = shown?.type === 'tool' ? shown.images?.[0] : undefined;
    expect(chart).toMatchObject({ mimeType: 'image/png' });
    // the vision model got the chart itself
    const imageParts = sentImages.filter((part) => part.type === 'image_url');
    expect(imageParts.map((part) => part.image_url!.url)).toEqual([`data:image/png;base64,${chart!.data}`]);
    // the main model got its description in the tool result, and no image
    expect(toolResult).toContain(
      `[Description of image 1 of 1 (${chart!.path}) from python_execute, written by the vision model eyes-model because test-model cannot see images:]\n${described}\n[End of the description]`,
    );
    expect(JSON.stringify(mainBodies)).not.toContain('image_url');
  });

  it('a browser screenshot (Chromium)', async () => {
    const described = 'A page with the heading "Spring sale" and the text "Everything 20% off".';
    const { mainBodies, sentImages, toolResult } = await runWithVisionModel(
      { name: 'browser_use', arguments: { action: 'go_to_url', url: server.url('/shop') } },
      described,
    );
    const imageParts = sentImages.filter((part) => part.type === 'image_url');
    expect(imageParts).toHaveLength(1);
    expect(imageParts[0]!.image_url!.url).toMatch(/^data:image\/jpeg;base64,\/9j\//);
    expect(toolResult).toContain(`Current URL: ${server.url('/shop')}`);
    expect(toolResult).toContain(
      `[Description of image 1 of 1 from browser_use, written by the vision model eyes-model because test-model cannot see images:]\n${described}`,
    );
    expect(JSON.stringify(mainBodies)).not.toContain('image_url');
  });
});
