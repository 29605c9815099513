// Runs every benchmark under bench/ (or those whose path contains an argument) one after another; each prints its
// figures. One that fails does not stop the others: the failures are named at the end, and the exit code says so.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const filters = process.argv.slice(2);
const scripts = readdirSync('bench', { withFileTypes: true })
  // bench/support holds what the benchmarks share, not benchmarks
  .filter((entry) => entry.isDirectory() && entry.name !== 'support')
  .flatMap((dir) =>
    readdirSync(join('bench', dir.name))
      .filter((file) => file.endsWith('.ts'))
      .map((file) => join('bench', dir.name, file)),
  )
  .filter((path) => filters.length === 0 || filters.some((filter) => path.includes(filter)));

const failed = [];
for (const script of scripts) {
  process.stdout.write(`\n### ${script}\n`);
  try {
    execFileSync('npx', ['tsx', '--import', './scripts/raw-text/register.mjs', script], { stdio: 'inherit' });
  } catch {
    failed.push(script);
  }
}
if (failed.length > 0) {
  process.stdout.write(`\n${failed.length} of ${scripts.length} benchmarks failed: ${failed.join(', ')}\n`);
  process.exitCode = 1;
}
