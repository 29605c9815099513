import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StagedFile } from '../../src/main/workspace/upload-staging.js';

/** An upload as UploadStaging hands it over: its name and a host file holding its bytes. */
export function stagedFile(name: string, content: string | Uint8Array): StagedFile {
  const path = join(mkdtempSync(join(tmpdir(), 'manus-staged-')), 'bytes');
  writeFileSync(path, content);
  return { name, path };
}
