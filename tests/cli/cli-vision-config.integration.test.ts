import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm, type ScriptRequest } from '../support/fake-llm/index.js';
import { cliEnv, runCli } from '../support/cli.js';
import { htmlPage, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { CHROMIUM } from '../browser/browser-test-kit.js';

const VISION_MODEL = 'gpt-4o-mini';
const DESCRIPTION = 'A page headed "Opening hours": Monday to Friday, 9 to 17.';

let llm: FakeLlm;
let site: FixtureServer;
let dataDir: string;

beforeAll(async () => {
  llm = await startFakeLlm();
  site = await startFixtureServer({ '/hours': htmlPage('<h1>Opening hours</h1><p>Mon–Fri 9–17</p>', 'Hours') });
  dataDir = mkdtempSync(join(tmpdir(), 'manus-cli-vision-'));
});
afterAll(async () => {
  await llm?.close();
  await site?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('vision settings through `manus config`', () => {
  it('sets, reads back and refuses them; a run then uses the vision model with the image detail', async () => {
    const base = { MANUS_DATA_DIR: dataDir };
    const set = async (key: string, value: string) => {
      const result = await runCli(['config', 'set', key, value], base);
      expect(result.code, result.stderr).toBe(0);
    };
    // a vision model that is not a provider is refused with the reason, and nothing is saved
    const early = await runCli(['config', 'set', 'visionLlm', 'eyes'], base);
    expect(early.code).toBe(2);
    expect(early.stderr).toContain('visionLlm');
    expect(early.stderr).toContain('"eyes" is not a configured provider');

    await set('llms.eyes.model', VISION_MODEL);
    await set('llms.eyes.baseUrl', llm.baseUrl);
    await set('llms.eyes.apiKey', 'sk-eyes-4321');
    await set('visionLlm', 'eyes');
    await set('imageDetail', 'low');
    await set('browser.executablePath', CHROMIUM);
    await set('browser.allowPrivateNetwork', 'true');
    await set('sandbox.mode', 'local');
    const bad = await runCli(['config', 'set', 'imageDetail', 'huge'], base);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('imageDetail');
    expect((await runCli(['config', 'get', 'imageDetail'], base)).stdout.trim()).toBe('low');
    expect((await runCli(['config', 'get', 'visionLlm'], base)).stdout.trim()).toBe('eyes');

    // the session's model (test-model, from the environment) cannot see: the screenshot goes to the vision model
    llm.setScript((request: ScriptRequest) => {
      if (request.body.model === VISION_MODEL) return { text: DESCRIPTION };
      const messages = request.body.messages as { role: string; content: string }[];
      const tool = messages.filter((m) => m.role === 'tool').at(-1);
      if (tool?.content.includes(DESCRIPTION)) {
        return {
          text: 'Open 9 to 17 on weekdays.',
          toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }],
        };
      }
      return { toolCalls: [{ name: 'browser_use', arguments: { action: 'go_to_url', url: site.url('/hours') } }] };
    });
    const run = await runCli(['run', 'When is it open?'], cliEnv(dataDir, llm.baseUrl), { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Open 9 to 17 on weekdays.');
    const described = llm.chatRequests.filter((r) => r.body.model === VISION_MODEL);
    expect(described).toHaveLength(1);
    expect(described[0]!.headers.authorization).toBe('Bearer sk-eyes-4321');
    const image = (described[0]!.body.messages as { content: unknown }[])
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .find((part: { type: string }) => part.type === 'image_url') as { image_url: { url: string; detail: string } };
    expect(image.image_url.detail).toBe('low');
    expect(image.image_url.url).toMatch(/^data:image\/jpeg;base64,/);
  });
});
