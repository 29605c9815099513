/**
 * CLI start benchmark: whole `manus` processes (`--version`, `--help`, `sessions list` over a data folder with 1,000
 * sessions) against a bare `node -e 0` started in the same rounds, as wall time, CPU time and peak memory.
 * Run: npx tsx bench/cli/cli-start-bench.ts (it builds out/cli/manus.mjs first, so it measures the current code)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../../src/main/store/store.js';

const CLI_PATH = 'out/cli/manus.mjs';
const RUNS = 10;
const SEEDED_SESSIONS = 1_000;
const VERSION_RSS_TARGET_MB = 60;
const SWEEP_COMMAND = 'sweep-sandboxes';
const SWEEP_WAIT_MS = 30_000;

/** Preloaded into every measured process: on exit it writes its CPU time and peak memory as the last stderr line. */
const USAGE_PROBE =
  'data:text/javascript,import { writeSync } from "node:fs";' +
  'process.on("exit", () => { const { userCPUTime, systemCPUTime, maxRSS } = process.resourceUsage();' +
  'writeSync(2, `\\n${JSON.stringify({ cpuUs: userCPUTime + systemCPUTime, maxRssKb: maxRSS })}\\n`); });';

interface Sample {
  wallMs: number;
  cpuMs: number;
  rssMb: number;
}

interface Subject {
  figure: string;
  args: string[];
  /** the highest ratio to `node -e 0` the target allows */
  targetRatio: number;
  samples: Sample[];
}

function runOnce(args: string[], env: NodeJS.ProcessEnv): Sample {
  const started = performance.now();
  const child = spawnSync(process.execPath, ['--import', USAGE_PROBE, ...args], { env, encoding: 'utf8' });
  const wallMs = performance.now() - started;
  if (child.status !== 0) throw new Error(`node ${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  const usage = JSON.parse(child.stderr.trim().split('\n').at(-1) ?? '{}') as { cpuUs: number; maxRssKb: number };
  return { wallMs, cpuMs: usage.cpuUs / 1000, rssMb: usage.maxRssKb / 1024 };
}

/** The detached sandbox sweeps a `manus` start leaves running (Linux /proc; none are seen elsewhere). */
function runningSweeps(): number {
  if (!fs.existsSync('/proc')) return 0;
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return commandLine.includes(CLI_PATH) && commandLine.includes(SWEEP_COMMAND);
      } catch {
        return false; // gone meanwhile
      }
    }).length;
}

/** Lets the sweep a start handed off finish, so that it does not take the CPU from the next process measured. */
async function sweepsDone(): Promise<void> {
  const deadline = Date.now() + SWEEP_WAIT_MS;
  while (runningSweeps() > 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function seedDataDir(): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manus-cli-bench-'));
  const store = openStore(dataDir);
  try {
    for (let index = 0; index < SEEDED_SESSIONS; index += 1) {
      const session = store.createSession({
        title: `Bench session ${index}`,
        mode: 'agent',
        model: 'gpt-4o',
        workspace: `/w/${index}`,
      });
      store.appendEvent({
        type: 'message',
        sessionId: session.id,
        messageId: `m${index}`,
        role: 'user',
        text: `Task number ${index}`,
        delta: false,
        ts: Date.now(),
      });
      store.updateSession(session.id, { status: 'finished' });
    }
  } finally {
    store.close();
  }
  return dataDir;
}

execFileSync(process.execPath, ['scripts/build-cli.mjs'], { stdio: 'inherit' });
const dataDir = seedDataDir();
const env = { ...process.env, MANUS_DATA_DIR: dataDir };
const yardstick: Subject = { figure: 'node -e 0', args: ['-e', '0'], targetRatio: 1, samples: [] };
const subjects: Subject[] = [
  { figure: 'manus --version', args: [CLI_PATH, '--version'], targetRatio: 1.5, samples: [] },
  { figure: 'manus --help', args: [CLI_PATH, '--help'], targetRatio: 1.5, samples: [] },
  {
    figure: `manus sessions list (${SEEDED_SESSIONS} sessions)`,
    args: [CLI_PATH, 'sessions', 'list'],
    targetRatio: 2,
    samples: [],
  },
];

console.log(
  `CLI start benchmark on ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}, node ${process.version}`,
);
console.log(`${RUNS} rounds; each round starts every process once, so all of them see the same load.\n`);
try {
  for (const subject of [yardstick, ...subjects]) runOnce(subject.args, env); // warm the page cache, not measured
  for (let round = 0; round < RUNS; round += 1) {
    for (const subject of [yardstick, ...subjects]) {
      await sweepsDone();
      subject.samples.push(runOnce(subject.args, env));
    }
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const base = {
  wallMs: median(yardstick.samples.map((sample) => sample.wallMs)),
  cpuMs: median(yardstick.samples.map((sample) => sample.cpuMs)),
  rssMb: Math.max(...yardstick.samples.map((sample) => sample.rssMb)),
};
const rows = subjects.map((subject) => {
  const wallMs = median(subject.samples.map((sample) => sample.wallMs));
  const cpuMs = median(subject.samples.map((sample) => sample.cpuMs));
  const wallRatio = wallMs / base.wallMs;
  const cpuRatio = cpuMs / base.cpuMs;
  return {
    figure: subject.figure,
    'median wall / CPU': `${wallMs.toFixed(0)} / ${cpuMs.toFixed(0)} ms`,
    'node -e 0': `${base.wallMs.toFixed(0)} / ${base.cpuMs.toFixed(0)} ms`,
    ratio: `${wallRatio.toFixed(2)}× / ${cpuRatio.toFixed(2)}×`,
    target: `≤ ${subject.targetRatio}×`,
    met: wallRatio <= subject.targetRatio ? 'yes' : cpuRatio <= subject.targetRatio ? 'CPU only' : 'NO',
  };
});
const versionRssMb = Math.max(...subjects[0].samples.map((sample) => sample.rssMb));
rows.push({
  figure: 'manus --version peak memory',
  'median wall / CPU': `${versionRssMb.toFixed(0)} MB`,
  'node -e 0': `${base.rssMb.toFixed(0)} MB`,
  ratio: `${(versionRssMb / base.rssMb).toFixed(2)}×`,
  target: `< ${VERSION_RSS_TARGET_MB} MB`,
  met: versionRssMb < VERSION_RSS_TARGET_MB ? 'yes' : 'NO',
});
console.table(rows);
console.log(
  'Wall = median time from spawn to exit; CPU = median user+system time of the process (all its threads).\n' +
    `A command's start hands the sandbox sweep to a detached process (manus ${SWEEP_COMMAND}); it is let finish between runs.\n` +
    'Peak memory = the largest max RSS over the runs. On a busy machine wall times include waiting for a CPU;\n' +
    '"CPU only" marks a target met by the work itself but not by the wall clock under the current load.',
);
