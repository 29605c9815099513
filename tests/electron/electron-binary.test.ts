import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const ELECTRON_BINARY = resolve('scripts/electron-binary.mjs');
const POSTINSTALL = resolve('scripts/postinstall.mjs');
const ELECTRON_PACKAGE = resolve('node_modules/electron');
const ELECTRON_VERSION = (
  JSON.parse(readFileSync(join(ELECTRON_PACKAGE, 'package.json'), 'utf8')) as { version: string }
).version;

/** A project folder whose node_modules/electron is the real package, without its binary. */
let project: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'manus-electron-binary-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(ELECTRON_PACKAGE, join(project, 'node_modules', 'electron'));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

function runScript(script: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [script], {
    cwd: project,
    // no proxy, no inherited ELECTRON_* settings, a cache of its own: only what each test names
    env: { PATH: process.env.PATH ?? '', HOME: project, electron_config_cache: join(project, 'cache'), ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise<{ status: number | null; output: string }>((done) =>
    child.on('close', (status) => done({ status, output })),
  );
}

/** A loopback port nothing listens on: a download host that cannot be reached, as GitHub is on a closed network. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  await new Promise((closed) => server.close(closed));
  return port;
}

describe('the Electron binary, installed by npm install when its host can be reached', () => {
  let mirror: Server | undefined;
  afterEach(async () => {
    await new Promise((closed) => (mirror ? mirror.close(closed) : closed(undefined)));
    mirror = undefined;
  });

  it('is skipped with one line when the download host cannot be reached, and npm install still succeeds', async () => {
    const env = { ELECTRON_MIRROR: `http://127.0.0.1:${await closedPort()}/` };
    const postinstall = await runScript(POSTINSTALL, env);
    expect(postinstall.output).toMatch(/127\.0\.0\.1 cannot be reached, so the Electron binary is not downloaded/);
    expect(postinstall.output).toMatch(/the CLI, `manus serve` and the tests do not/);
    expect(postinstall.status).toBe(0);
    // npm start runs the same step first: there, a missing binary stops it with the same line
    const prestart = await runScript(ELECTRON_BINARY, env);
    expect(prestart.output).toMatch(/cannot be reached/);
    expect(prestart.status).toBe(1);
  });

  it('runs electron’s own download when the host answers, and says so when that download fails', async () => {
    const requested: string[] = [];
    mirror = createServer((request, response) => {
      requested.push(request.url ?? '');
      response.writeHead(404).end();
    });
    await new Promise<void>((ready) => mirror!.listen(0, '127.0.0.1', ready));
    const { port } = mirror.address() as AddressInfo;
    const result = await runScript(ELECTRON_BINARY, { ELECTRON_MIRROR: `http://127.0.0.1:${port}/` });
    expect(requested.some((url) => url.includes(`electron-v${ELECTRON_VERSION}-`))).toBe(true);
    expect(result.output).toMatch(/the download failed \(output above\)/);
    expect(result.status).toBe(1);
  });

  it('is not downloaded again when this version is installed', async () => {
    rmSync(join(project, 'node_modules', 'electron'));
    const electron = join(project, 'node_modules', 'electron');
    mkdirSync(join(electron, 'dist'), { recursive: true });
    writeFileSync(join(electron, 'package.json'), JSON.stringify({ version: ELECTRON_VERSION }));
    writeFileSync(join(electron, 'install.js'), 'process.exit(1);');
    writeFileSync(join(electron, 'dist', 'version'), `v${ELECTRON_VERSION}`);
    writeFileSync(join(electron, 'path.txt'), 'electron');
    writeFileSync(join(electron, 'dist', 'electron'), '');
    const result = await runScript(ELECTRON_BINARY, { ELECTRON_MIRROR: `http://127.0.0.1:${await closedPort()}/` });
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  });

  it('is skipped when ELECTRON_SKIP_BINARY_DOWNLOAD is set, as electron’s own script does', async () => {
    const result = await runScript(POSTINSTALL, { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
    expect(result.output).toMatch(/ELECTRON_SKIP_BINARY_DOWNLOAD is set, the Electron binary is not downloaded/);
    expect(result.status).toBe(0);
  });
});
