import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src/shared/events.js';
import { closeSharedBrowsers, sharedBrowserCount } from '../../src/main/browser/browser-launcher.js';
import type { ScriptRequest } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { htmlPage, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { CHROMIUM, indexOf } from './browser-test-kit.js';

let server: FixtureServer;
let harness: CoreHarness | undefined;

beforeAll(async () => {
  server = await startFixtureServer({
    '/signup': htmlPage(
      `<form action="/welcome"><input name="user" placeholder="User name"><button>Sign up</button></form>`,
      'Sign up',
    ),
    '/welcome': (request) => htmlPage(`<h1>Welcome, ${request.url.searchParams.get('user')}!</h1>`, 'Welcome'),
  });
});

afterAll(async () => {
  await harness?.close();
  await closeSharedBrowsers();
  await server?.close();
});

const call = (args: unknown) => ({ name: 'browser_use', arguments: JSON.stringify(args) });

/** The text of the newest tool message the agent sent the model. */
function lastToolText(request: ScriptRequest): string {
  const messages = request.body.messages as { role: string; content: unknown }[];
  const tool = messages.filter((message) => message.role === 'tool').at(-1);
  return typeof tool?.content === 'string' ? tool.content : JSON.stringify(tool?.content ?? '');
}

describe('the Manus agent using the browser', () => {
  it('fills and submits a form through browser_use, and the browser closes with the last session', async () => {
    const script = (request: ScriptRequest) => {
      if (request.index === 0) return { toolCalls: [call({ action: 'go_to_url', url: server.url('/signup') })] };
      if (request.index === 1) {
        const state = lastToolText(request);
        return {
          toolCalls: [
            call({ action: 'input_text', index: indexOf(state, 'User name'), text: 'grace' }),
            call({ action: 'click_element', index: indexOf(state, 'Sign up') }),
          ],
        };
      }
      const landed = /Current URL: (\S+)/.exec(lastToolText(request))?.[1] ?? 'nowhere';
      return {
        text: `Signed up at ${landed}`,
        toolCalls: [{ name: 'terminate', arguments: JSON.stringify({ status: 'success' }) }],
      };
    };
    // the local site is on loopback: the user allows private addresses
    harness = await startCoreHarness(script, {
      settings: { browser: { executablePath: CHROMIUM, allowPrivateNetwork: true } },
    });
    const { sessionId, done } = harness.service.start({ task: 'Sign up as grace on the local site' });
    expect(await done).toMatchObject({
      status: 'finished',
      result: `Signed up at ${server.url('/welcome?user=grace')}`,
    });

    const events = harness.store.listEvents(sessionId) as CoreEvent[];
    const finished = events.filter((e) => e.type === 'tool' && e.name === 'browser_use' && e.status === 'done');
    expect(finished).toHaveLength(3);
    for (const event of finished) {
      expect(event.type === 'tool' && event.images?.[0]?.mimeType).toBe('image/jpeg');
    }
    expect(sharedBrowserCount()).toBe(1);
    await harness.service.release(sessionId);
    // the last session let go of the browser: nothing keeps a finished CLI run alive
    expect(sharedBrowserCount()).toBe(0);
  });
});
