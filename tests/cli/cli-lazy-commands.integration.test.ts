import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LISTEN_ADDRESS } from '../../src/main/cli/commands/server-options.js';
import { LOOPBACK_ADDRESS } from '../../src/main/server/server-address.js';
import { runCli } from '../support/cli.js';

const OUT_DIR = 'out/cli';
/** what a command that neither serves nor runs an agent must not load (tens to hundreds of ms each) */
const HEAVY_PACKAGES = ['playwright', '@modelcontextprotocol/sdk', 'openai', 'dockerode', 'express', '@a2a-js/sdk'];
const STATIC_IMPORT = /^import\s+(?:[^;]*?\sfrom\s*)?"([^"]+)";/gm;

/** The packages a built chunk loads before it runs: its static imports, and theirs, not its `import()`s. */
function staticPackages(chunk: string, seen = new Set<string>()): Set<string> {
  const packages = new Set<string>();
  if (seen.has(chunk)) return packages;
  seen.add(chunk);
  for (const [, specifier] of readFileSync(join(OUT_DIR, chunk), 'utf8').matchAll(STATIC_IMPORT)) {
    if (specifier.startsWith('./')) for (const name of staticPackages(specifier.slice(2), seen)) packages.add(name);
    else if (!specifier.startsWith('node:')) packages.add(specifier);
  }
  return packages;
}

function builtChunk(prefix: string): string {
  const found = readdirSync(OUT_DIR).find((file) => file.startsWith(`${prefix}-`) && file.endsWith('.mjs'));
  if (!found) throw new Error(`no ${prefix} chunk in ${OUT_DIR}`);
  return found;
}

describe('the manus command table loads each command when it runs', () => {
  it('--version and --help load commander and nothing else', () => {
    expect([...staticPackages('manus.mjs')]).toEqual(['commander']);
  });

  it('`sessions` loads the store, not the agent, the browser, Docker or the servers', () => {
    const packages = [...staticPackages(builtChunk('sessions-actions'))];
    expect(packages).toContain('better-sqlite3');
    for (const heavy of HEAVY_PACKAGES) expect(packages.some((name) => name.startsWith(heavy))).toBe(false);
  });

  it('the server flags default to the loopback address the servers use', () => {
    expect(DEFAULT_LISTEN_ADDRESS).toBe(LOOPBACK_ADDRESS);
  });

  it('the server flags are still checked by their schemas, loaded before the command parses them', async () => {
    const host = await runCli(['serve', '--host', 'nowhere']);
    expect(host.code).not.toBe(0);
    expect(host.stderr).toContain("error: option '--host <address>' argument 'nowhere' is invalid. give an IP address");

    const token = await runCli(['a2a', '--token', 'short']);
    expect(token.code).not.toBe(0);
    expect(token.stderr).toContain(
      "error: option '--token <token>' argument 'short' is invalid. a token needs at least",
    );

    const allowHost = await runCli(['mcp-server', '--transport', 'http', '--allow-host', 'bad host!']);
    expect(allowHost.code).not.toBe(0);
    expect(allowHost.stderr).toContain("error: option '--allow-host <name>' argument 'bad host!' is invalid.");
  });
});
