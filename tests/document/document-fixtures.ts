import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MAKER = readFileSync(new URL('./fixtures/make_documents.py', import.meta.url), 'utf8');

/**
 * A folder of test documents, one of each format and the hostile ones, written by fixtures/make_documents.py in a
 * throwaway container of the sandbox image (which has the libraries that write them), with no network.
 */
export function makeTestDocuments(image: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'manus-documents-'));
  // the image's user writes them
  chmodSync(folder, 0o777);
  execFileSync(
    'docker',
    ['run', '--rm', '--network', 'none', '-v', `${folder}:/out`, image, 'python3', '-c', MAKER, '/out'],
    { stdio: ['ignore', 'ignore', 'inherit'], timeout: 180_000 },
  );
  return folder;
}

export function documentBytes(folder: string, name: string): Buffer {
  return readFileSync(join(folder, name));
}
