/**
 * The costs behind review mode and the workspace panel:
 *  - review: rebuilding the session view from the stored events at a slider position (the same reducers as live),
 *    for a saved session of 5,000 events, at random positions and while dragging from start to end;
 *  - workspace: listing a folder of 2,000 files, reading a 500 KB text preview and a 5 MB image preview.
 *
 *   npx tsx bench/ui/review-and-workspace.ts [--events 5000] [--files 2000]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CoreEvent } from '../../src/shared/events.js';
import { sessionViewFromEvents } from '../../src/renderer/src/state/session-view.js';
import { reviewMarks } from '../../src/renderer/src/features/sessions/review-marks.js';
import { listWorkspace, readWorkspaceFile } from '../../src/main/workspace/workspace-files.js';
import { longSessionEvents } from '../support/long-session-events.js';

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function timed(runs: number, body: (run: number) => unknown): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await body(run);
    times.push(performance.now() - started);
  }
  return times;
}

const rows: [string, number[]][] = [];
const eventCount = argument('events', 5000);
const fileCount = argument('files', 2000);

// as the store returns them: numbered in order
const events = longSessionEvents('bench-session', eventCount).map(
  (event, index) => ({ ...event, seq: index + 1, ts: 1_700_000_000_000 + index * 100 }) as CoreEvent,
);
rows.push(['review: marks of the whole session', await timed(20, () => reviewMarks(events))]);
rows.push([
  `review: view at a random position (${events.length} events)`,
  await timed(50, () =>
    sessionViewFromEvents('bench-session', events.slice(0, Math.floor(Math.random() * events.length))),
  ),
]);
const dragSteps = 60;
rows.push([
  'review: one step of a slider drag (60 steps start→end)',
  await timed(dragSteps, (step) =>
    sessionViewFromEvents('bench-session', events.slice(0, Math.round(((step + 1) / dragSteps) * events.length))),
  ),
]);

const workspace = mkdtempSync(join(tmpdir(), 'manus-bench-ws-'));
try {
  for (let index = 0; index < fileCount; index += 1) {
    const folder = join(workspace, `dir${index % 20}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `file-${index}.txt`), `file ${index}\n`);
  }
  writeFileSync(join(workspace, 'big.log'), 'line of log output\n'.repeat(30_000));
  writeFileSync(join(workspace, 'photo.png'), Buffer.alloc(5 * 1024 * 1024, 7));
  rows.push([`workspace: list ${fileCount} files`, await timed(20, () => listWorkspace(workspace))]);
  rows.push(['workspace: read a 500 KB text preview', await timed(30, () => readWorkspaceFile(workspace, 'big.log'))]);
  rows.push(['workspace: read a 5 MB image preview', await timed(20, () => readWorkspaceFile(workspace, 'photo.png'))]);
} finally {
  rmSync(workspace, { recursive: true, force: true });
}

const width = Math.max(...rows.map(([name]) => name.length));
console.log(
  `${'measure'.padEnd(width)}  ${'p50 ms'.padStart(8)}  ${'p99 ms'.padStart(8)}  ${'max ms'.padStart(8)}  runs`,
);
for (const [name, times] of rows) {
  const cells = [percentile(times, 50), percentile(times, 99), Math.max(...times)].map((value) =>
    value.toFixed(2).padStart(8),
  );
  console.log(`${name.padEnd(width)}  ${cells.join('  ')}  ${times.length}`);
}
