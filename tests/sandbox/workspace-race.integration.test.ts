import { randomUUID } from 'node:crypto';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachedImages } from '../../src/main/flow/attached-images.js';
import { checkAttachments } from '../../src/main/flow/reported-attachments.js';
import { filesChangedSince } from '../../src/main/flow/workspace-changes.js';
import { dockerClient } from '../../src/main/sandbox/engine.js';
import type { Plan } from '../../src/main/store/plan-store.js';
import { bashTool } from '../../src/main/tool/bash.js';
import { strReplaceEditorTool } from '../../src/main/tool/str-replace-editor.js';
import {
  confinedPath,
  listWorkspace,
  readWorkspaceFile,
  saveUploads,
} from '../../src/main/workspace/workspace-files.js';
import { stagedFile } from '../support/staged-file.js';
import type { TestToolContext } from '../support/tool-context.js';
import { waitFor } from '../support/wait-for.js';
import { call, closeSandbox, containerIdOf, sandboxContext, textOf } from './sandbox-test-kit.js';

/** rounds of every operation while the sandbox swaps entries under it; the issue saw a leak within a few hundred */
const ROUNDS = 300;
const SECRET = `host secret ${randomUUID()}`;
const HOST_ONLY_NAME = `host-only-${randomUUID()}.txt`;

/**
 * Sandbox code swapping workspace entries for links to host paths as fast as it can (renameat2 RENAME_EXCHANGE: each
 * swap is atomic): /workspace/x and d/x between a file and a link to a host file, /workspace/d and uploads between a
 * folder and a link to a host folder, p.png between an image and a link to a host image.
 */
const FLIPPER = `
import ctypes, os, sys
secret_file, secret_dir, secret_png = sys.argv[1:4]
libc = ctypes.CDLL(None, use_errno=True)
os.chdir('/workspace')
with open('x', 'w') as f: f.write('inside text\\n')
os.symlink(secret_file, 'x.alt')
os.makedirs('d')
with open('d/x', 'w') as f: f.write('inside text\\n')
os.symlink(secret_dir, 'd.alt')
os.makedirs('uploads')
os.symlink(secret_dir, 'uploads.alt')
with open('p.png', 'wb') as f: f.write(b'\\x89PNG inside')
os.symlink(secret_png, 'p.png.alt')
with open('flipper.ready', 'w') as f: f.write('ready')
pairs = [(b'x', b'x.alt'), (b'd', b'd.alt'), (b'uploads', b'uploads.alt'), (b'p.png', b'p.png.alt')]
while True:
    for a, b in pairs:
        if libc.renameat2(-100, a, -100, b, 2) != 0:
            sys.exit('renameat2 failed: %d' % ctypes.get_errno())
`;

/** Runs a command in the session's container in the background, as the sandbox user (the workspace folder's owner). */
async function startInSandbox(ctx: TestToolContext, cmd: string[]): Promise<void> {
  const id = containerIdOf(ctx);
  if (!id) throw new Error('no container');
  const { uid, gid } = lstatSync(ctx.workspace);
  const exec = await dockerClient()
    .getContainer(id)
    .exec({ Cmd: cmd, User: `${uid}:${gid}`, AttachStdout: false, AttachStderr: false });
  await exec.start({ Detach: true });
}

function hostFolderState(folder: string): string[] {
  return readdirSync(folder)
    .sort()
    .map((name) => `${name}=${readFileSync(join(folder, name), 'latin1')}`);
}

function planWithAttachments(attachments: string[]): Plan {
  return { steps: [{ attachments }] } as unknown as Plan;
}

describe('host-side workspace operations while the sandbox swaps entries for links', () => {
  let ctx: TestToolContext;
  let secretDir: string;
  let before: string[];

  beforeAll(async () => {
    ctx = sandboxContext({ settings: { agent: { maxObserve: 100_000 } } });
    // the container cannot see this folder: the links it makes point at host paths only the host resolves
    secretDir = mkdtempSync(join(tmpdir(), 'manus-host-secret-'));
    writeFileSync(join(secretDir, 'secret.txt'), `${SECRET}\n`);
    writeFileSync(join(secretDir, 'x'), `${SECRET}\n`);
    writeFileSync(join(secretDir, HOST_ONLY_NAME), `${SECRET}\n`);
    writeFileSync(join(secretDir, 'p.png'), `\x89PNG ${SECRET}`, 'latin1');
    before = hostFolderState(secretDir);
    // the first call starts the container and shares the workspace with the sandbox user
    await call(bashTool, { command: 'true' }, ctx);
    await startInSandbox(ctx, [
      'python3',
      '-c',
      FLIPPER,
      join(secretDir, 'secret.txt'),
      secretDir,
      join(secretDir, 'p.png'),
    ]);
    await waitFor(() => existsSync(join(ctx.workspace, 'flipper.ready')), 30_000, 'the flipper to start');
  });

  afterAll(async () => {
    await closeSandbox(ctx);
    rmSync(secretDir, { recursive: true, force: true });
  });

  it('never reads, lists or writes a host file, in hundreds of rounds of every operation', async () => {
    const seen: string[] = [];
    let linkSeen = 0;
    let fileSeen = 0;
    const note = (value: unknown): void => {
      seen.push(typeof value === 'string' ? value : JSON.stringify(value));
    };
    const failure = (error: unknown): string => `error: ${(error as Error).message}`;
    for (let round = 0; round < ROUNDS; round++) {
      const editor = [
        { command: 'view' as const, path: '/workspace/x' },
        { command: 'view' as const, path: 'd/x' },
        { command: 'view' as const, path: 'd' },
        { command: 'view' as const, path: '/workspace' },
        { command: 'str_replace' as const, path: 'x', old_str: 'inside text', new_str: 'inside text' },
        { command: 'str_replace' as const, path: 'd/x', old_str: 'inside text', new_str: 'inside text' },
        { command: 'insert' as const, path: 'x', insert_line: 0, new_str: 'inserted' },
        { command: 'undo_edit' as const, path: 'x' },
        { command: 'create' as const, path: `d/new-${round}.txt`, file_text: 'made by the host' },
        { command: 'undo_edit' as const, path: `d/new-${round}.txt` },
        // beside the swapped entries: a create that must work every round, so the test cannot pass by refusing all
        { command: 'create' as const, path: `new-${round}.txt`, file_text: 'made by the host' },
        { command: 'undo_edit' as const, path: `new-${round}.txt` },
      ];
      for (const args of editor) note(textOf(await call(strReplaceEditorTool, args, ctx)));
      for (const path of ['x', 'd/x', 'p.png']) note(await readWorkspaceFile(ctx.workspace, path).catch(failure));
      note(await listWorkspace(ctx.workspace).catch(failure));
      note(await confinedPath(ctx.workspace, 'd/x').catch(failure));
      note(filesChangedSince(ctx.workspace, 0));
      note(checkAttachments(ctx.workspace, ['x', 'd/x', 'p.png']));
      for (const image of attachedImages(planWithAttachments(['p.png']), ctx.workspace)) {
        note(Buffer.from(image.data, 'base64').toString('latin1'));
      }
      try {
        note(saveUploads(ctx.workspace, [stagedFile(`upload-${round}.txt`, 'dropped')]));
      } catch (error) {
        note(failure(error));
      }
      const kind = readdirSync(ctx.workspace, { withFileTypes: true }).find((entry) => entry.name === 'x');
      if (kind?.isSymbolicLink()) linkSeen++;
      else if (kind?.isFile()) fileSeen++;
    }
    const everything = seen.join('\n');
    // the swaps really happened, and the operations really worked on the workspace's own files in between
    expect(linkSeen).toBeGreaterThan(0);
    expect(fileSeen).toBeGreaterThan(0);
    expect(everything).toContain('inside text');
    expect(everything.match(/Created \/workspace\/new-\d+\.txt/g)).toHaveLength(ROUNDS);
    expect(everything).toContain('\x89PNG inside');
    // nothing of the host's came back, and nothing of it changed
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(HOST_ONLY_NAME);
    expect(everything).not.toContain(secretDir);
    expect(hostFolderState(secretDir)).toEqual(before);
  });
});
