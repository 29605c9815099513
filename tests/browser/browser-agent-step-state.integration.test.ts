import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeSharedBrowsers } from '../../src/main/browser/browser-launcher.js';
import { BUILTIN_MODES } from '../../src/main/flow/mode-catalog.js';
import type { ModeRunner } from '../../src/main/flow/mode-runner.js';
import type { LlmConfigInput } from '../../src/shared/settings/llm-config.js';
import type { ScriptRequest } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { htmlPage, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { CHROMIUM } from './browser-test-kit.js';

type Part = { type: string; text?: string; image_url?: { url: string; detail?: string } };
type Body = { messages: { role: string; content: string | Part[] | null }[] };

let server: FixtureServer;
let harness: CoreHarness | undefined;

beforeAll(async () => {
  server = await startFixtureServer({
    // taller than the 800-px viewport: there is more below the fold
    '/catalogue': htmlPage(
      `<h1>Catalogue</h1><a href="/next">Next page</a><button>Order now</button><div style="height:3000px"></div><p>Footer</p>`,
      'Long catalogue',
    ),
  });
});

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

afterAll(async () => {
  await closeSharedBrowsers();
  await server?.close();
});

/** The agent mode running the browser agent, as a flow's [BROWSER] step does. */
const browserAgentMode: ModeRunner = async (run) => {
  const outcome = await run.createAgent('browser').run(run.request.task, { signal: run.signal });
  return { status: outcome.outcome === 'success' ? 'finished' : 'failed', result: outcome.text };
};

const call = (args: unknown) => ({ name: 'browser_use', arguments: JSON.stringify(args) });

/** The step prompt: the last message of a request. */
function stepPrompt(body: Body): { text: string; images: Part[] } {
  const last = body.messages.at(-1)!;
  expect(last.role).toBe('user');
  if (typeof last.content === 'string') return { text: last.content, images: [] };
  const parts = last.content ?? [];
  return {
    text: parts.flatMap((part) => (part.type === 'text' ? [part.text ?? ''] : [])).join('\n'),
    images: parts.filter((part) => part.type === 'image_url'),
  };
}

/** Opens the catalogue, scrolls down, finishes; returns what the model received at each step. */
async function browseCatalogue(llmConfig: Partial<LlmConfigInput>, imageDetail?: 'low' | 'high') {
  const bodies: Body[] = [];
  const script = (request: ScriptRequest) => {
    bodies.push(request.body as Body);
    if (request.index === 0) return { toolCalls: [call({ action: 'go_to_url', url: server.url('/catalogue') })] };
    if (request.index === 1) return { toolCalls: [call({ action: 'scroll_down' })] };
    return { text: 'Seen it.', toolCalls: [{ name: 'terminate', arguments: '{"status":"success"}' }] };
  };
  harness = await startCoreHarness(script, {
    // the fixture is on loopback: the user allows private addresses
    settings: {
      browser: { executablePath: CHROMIUM, allowPrivateNetwork: true },
      ...(imageDetail ? { imageDetail } : {}),
    },
    service: { modes: { ...BUILTIN_MODES, agent: browserAgentMode } },
    llmConfig,
  });
  const { done } = harness.service.start({ task: 'Look at the local catalogue' });
  expect(await done).toMatchObject({ status: 'finished', result: 'Seen it.' });
  expect(bodies).toHaveLength(3);
  return bodies.map(stepPrompt);
}

describe('the browser agent’s next-step prompt (real Chromium)', () => {
  it('carries the current URL, title, tabs, interactive elements and scroll position, and no screenshot for a text-only model', async () => {
    const [first, opened, scrolled] = await browseCatalogue({});
    expect(first!.text).toMatch(/^Current browser state: no page is open yet/);

    const url = server.url('/catalogue');
    expect(opened!.text).toContain(`Current URL: ${url} (tab `);
    expect(opened!.text).toMatch(/Scroll: top of the page; \d+ pixels below \(scroll down to see\)/);
    expect(opened!.text).toContain('Title: Long catalogue');
    expect(opened!.text).toMatch(new RegExp(`\\* tab \\d+: Long catalogue — ${url.replace(/[.?]/g, '\\$&')}`));
    expect(opened!.text).toMatch(/\[\d+\]<a href="\/next">Next page<\/a>/);
    expect(opened!.text).toMatch(/\[\d+\]<button>Order now<\/button>/);
    // the step's own question follows the state
    expect(opened!.text).toMatch(/Choose the next browser action/);
    expect(opened!.images).toEqual([]);

    expect(scrolled!.text).toMatch(/Scroll: \d+ pixels above \(scroll up to see\); /);
  });

  it('gives a model that sees the page screenshot with the prompt, with the image detail setting', async () => {
    const [first, opened, scrolled] = await browseCatalogue({ vision: true }, 'high');
    expect(first!.images).toEqual([]);
    for (const step of [opened!, scrolled!]) {
      expect(step.text).toContain('The screenshot below shows the page as it is now.');
      expect(step.images).toHaveLength(1);
      expect(step.images[0]!.image_url!.url).toMatch(/^data:image\/jpeg;base64,\/9j\//);
      expect(step.images[0]!.image_url!.detail).toBe('high');
    }
  });

  it('gives the manus agent the browser prompt with the page state in the step right after it used the browser, and only then', async () => {
    const bodies: Body[] = [];
    const script = (request: ScriptRequest) => {
      bodies.push(request.body as Body);
      if (request.index === 0) return { toolCalls: [call({ action: 'go_to_url', url: server.url('/catalogue') })] };
      if (request.index === 1)
        return { toolCalls: [{ name: 'str_replace_editor', arguments: '{"command":"view","path":"/workspace"}' }] };
      return { text: 'Seen it.', toolCalls: [{ name: 'terminate', arguments: '{"status":"success"}' }] };
    };
    harness = await startCoreHarness(script, {
      settings: { browser: { executablePath: CHROMIUM, allowPrivateNetwork: true }, sandbox: { mode: 'local' } },
    });
    const { done } = harness.service.start({ task: 'Look at the local catalogue' });
    expect(await done).toMatchObject({ status: 'finished', result: 'Seen it.' });
    const [first, afterBrowser, afterEditor] = bodies.map(stepPrompt);
    expect(first!.text).not.toContain('Current browser state');
    expect(afterBrowser!.text).toContain(`Current URL: ${server.url('/catalogue')} (tab `);
    expect(afterBrowser!.text).toMatch(/\[\d+\]<button>Order now<\/button>/);
    expect(afterBrowser!.text).toMatch(/Choose the next browser action/);
    // the step after one that did not use the browser has the agent's own prompt again
    expect(afterEditor!.text).not.toContain('Current browser state');
    expect(afterEditor!.text).not.toMatch(/Choose the next browser action/);
  });
});
