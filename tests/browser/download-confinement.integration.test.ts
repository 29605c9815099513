import { execFileSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closeSharedBrowsers } from '../../src/main/browser/browser-launcher.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import type { TestToolContext } from '../support/tool-context.js';
import { actOk, browserContext } from './browser-test-kit.js';

const REPORT = 'region,total\nnorth,20\nsouth,22\n';

let server: FixtureServer;
let outside: string;
const contexts: TestToolContext[] = [];

function session(): TestToolContext {
  const ctx = browserContext();
  contexts.push(ctx);
  return ctx;
}

beforeAll(async () => {
  server = await startFixtureServer({
    '/report.csv': {
      contentType: 'text/csv',
      headers: { 'Content-Disposition': 'attachment; filename="report.csv"' },
      body: REPORT,
    },
  });
});

beforeEach(() => {
  outside = mkdtempSync(join(tmpdir(), 'manus-outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'host file\n');
});

afterAll(async () => {
  await Promise.all(contexts.map((ctx) => ctx.session.release()));
  await closeSharedBrowsers();
  await server?.close();
  rmSync(outside, { recursive: true, force: true });
});

describe('downloads into a workspace the sandbox prepared', () => {
  it('never writes through a link planted under the download name: the file gets the next free name', async () => {
    const ctx = session();
    mkdirSync(join(ctx.workspace, 'downloads'));
    symlinkSync(join(outside, 'secret.txt'), join(ctx.workspace, 'downloads', 'report.csv'));
    // a dangling link: the name looks free to a check that follows links
    symlinkSync(join(outside, 'planted.csv'), join(ctx.workspace, 'downloads', 'report (2).csv'));
    const reply = await actOk(ctx, { action: 'go_to_url', url: server.url('/report.csv') });
    expect(reply).toContain(join('downloads', 'report (3).csv'));
    expect(readFileSync(join(ctx.workspace, 'downloads', 'report (3).csv'), 'utf8')).toBe(REPORT);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('host file\n');
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('refuses a downloads folder that is a link out of the workspace, writing nothing outside', async () => {
    const ctx = session();
    symlinkSync(outside, join(ctx.workspace, 'downloads'));
    const reply = await actOk(ctx, { action: 'go_to_url', url: server.url('/report.csv') });
    expect(reply).toMatch(
      /download of .* failed: downloads leads outside the workspace through a symbolic link; it is refused\.\n/,
    );
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('leaves a FIFO under the download name alone and saves beside it', async () => {
    const ctx = session();
    mkdirSync(join(ctx.workspace, 'downloads'));
    execFileSync('mkfifo', [join(ctx.workspace, 'downloads', 'report.csv')]);
    const reply = await actOk(ctx, { action: 'go_to_url', url: server.url('/report.csv') });
    expect(reply).toContain(join('downloads', 'report (2).csv'));
    expect(lstatSync(join(ctx.workspace, 'downloads', 'report.csv')).isFIFO()).toBe(true);
  });
});
