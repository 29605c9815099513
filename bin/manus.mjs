#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = fileURLToPath(new URL('../out/cli/manus.mjs', import.meta.url));
if (!existsSync(built)) {
  process.stderr.write(
    'manus: the CLI is not built yet. Run `npm install` (or `npm run build:cli`) in the project folder.\n',
  );
  process.exit(2);
}
await import(built);
