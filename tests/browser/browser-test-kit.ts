import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright';
import type { ToolResult } from '../../src/main/tool/tool.js';
import { browserUseTool } from '../../src/main/tool/browser-use.js';
import { createToolContext, type TestToolContext } from '../support/tool-context.js';

export const CHROMIUM = '/usr/bin/chromium';

/** A Chromium running on its own, as a user starts one for `browser.cdpUrl`, and its DevTools endpoint. */
export async function startCdpChromium(): Promise<{ chromium: ChildProcess; endpoint: string }> {
  const profile = mkdtempSync(join(tmpdir(), 'manus-cdp-'));
  const chromium = spawn(CHROMIUM, [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--remote-debugging-port=0',
    `--user-data-dir=${profile}`,
    'about:blank',
  ]);
  const endpoint = await new Promise<string>((resolve, reject) => {
    let output = '';
    chromium.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    chromium.on('exit', (code) => reject(new Error(`chromium exited with ${code}: ${output}`)));
  });
  return { chromium, endpoint };
}

type ContextOptions = NonNullable<Parameters<typeof createToolContext>[0]>;

/**
 * A tool context whose browser is Debian's Chromium; extra browser settings merge in. The fixture pages are
 * served on loopback, so private addresses are allowed, as a user would allow them, unless the test says not.
 */
export function browserContext(options: ContextOptions = {}): TestToolContext {
  const settings = (options.settings ?? {}) as Record<string, unknown>;
  const browser = (settings.browser ?? {}) as Record<string, unknown>;
  return createToolContext({
    ...options,
    settings: { ...settings, browser: { executablePath: CHROMIUM, allowPrivateNetwork: true, ...browser } },
  });
}

/** Runs browser_use as the agent would: arguments validated by the tool's schema first. */
export async function act(ctx: TestToolContext, args: Record<string, unknown>): Promise<ToolResult> {
  const parsed = browserUseTool.parameters.safeParse(args);
  if (!parsed.success) throw new Error(`invalid arguments in test: ${parsed.error.message}`);
  return browserUseTool.execute(parsed.data, ctx);
}

/** Text of a result that must have succeeded. */
export async function actOk(ctx: TestToolContext, args: Record<string, unknown>): Promise<string> {
  const result = await act(ctx, args);
  if (result.error !== undefined) throw new Error(`${String(args.action)} failed: ${result.error}`);
  return result.output ?? '';
}

/** The index the page state gives the element whose line contains `text`. */
export function indexOf(state: string, text: string): number {
  const line = state.split('\n').find((candidate) => /^\[\d+\]/.test(candidate) && candidate.includes(text));
  if (!line) throw new Error(`no element line containing "${text}" in:\n${state}`);
  return Number(/^\[(\d+)\]/.exec(line)?.[1]);
}

/** The page the session's browser_use actions act on, for checking what really happened in it. */
export async function activePage(ctx: TestToolContext): Promise<Page> {
  return (await ctx.session.browser.get()).activePage();
}
