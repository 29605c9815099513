import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachedImages } from '../../src/main/flow/attached-images.js';
import { checkAttachments } from '../../src/main/flow/reported-attachments.js';
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
import { call, closeSandbox, containerIdOf, sandboxContext, textOf } from './sandbox-test-kit.js';

/** what a writer in the sandbox pushes into its FIFOs: if the host ever opened one, this would show up */
const FIFO_CONTENT = 'written into the pipe by the sandbox';

const MAKE_SPECIAL_FILES = [
  'mkfifo /workspace/pipe.txt /workspace/pipe.png /workspace/uploads/dropped.txt',
  `python3 -c "import socket; socket.socket(socket.AF_UNIX).bind('/workspace/sock.txt')"`,
  'ls -l /workspace',
].join(' && ');

/** Sandbox processes waiting to write into each FIFO: a host that opened one would read instead of blocking. */
async function startPipeWriters(ctx: TestToolContext): Promise<void> {
  const id = containerIdOf(ctx);
  if (!id) throw new Error('no container');
  for (const pipe of ['pipe.txt', 'pipe.png', 'uploads/dropped.txt']) {
    const script = `while :; do echo '${FIFO_CONTENT}' > /workspace/${pipe}; done`;
    const exec = await dockerClient()
      .getContainer(id)
      .exec({ Cmd: ['sh', '-c', script], AttachStdout: false, AttachStderr: false });
    await exec.start({ Detach: true });
  }
}

describe('FIFOs and sockets the sandbox makes in the workspace', () => {
  let ctx: TestToolContext;

  beforeAll(async () => {
    ctx = sandboxContext();
    await call(bashTool, { command: 'mkdir -p /workspace/uploads' }, ctx);
    const made = textOf(await call(bashTool, { command: MAKE_SPECIAL_FILES }, ctx));
    expect(made).toMatch(/^p.* pipe\.txt$/m);
    expect(made).toMatch(/^s.* sock\.txt$/m);
    await startPipeWriters(ctx);
  });

  afterAll(async () => {
    await closeSandbox(ctx);
  });

  it('the editor refuses them with a clear error, never opening them', async () => {
    const refusals = [
      {
        command: 'view' as const,
        path: 'pipe.txt',
        expected: /pipe\.txt is a named pipe \(FIFO\), not a regular file/,
      },
      {
        command: 'str_replace' as const,
        path: '/workspace/pipe.txt',
        old_str: 'a',
        new_str: 'b',
        expected: /is a named pipe \(FIFO\)/,
      },
      { command: 'insert' as const, path: 'pipe.txt', insert_line: 0, new_str: 'x', expected: /named pipe/ },
      { command: 'view' as const, path: 'sock.txt', expected: /sock\.txt is a socket, not a regular file/ },
      { command: 'str_replace' as const, path: 'sock.txt', old_str: 'a', expected: /is a socket/ },
      { command: 'create' as const, path: 'pipe.txt', file_text: 'x', expected: /already exists/ },
    ];
    for (const { expected, ...args } of refusals) {
      const result = await call(strReplaceEditorTool, args, ctx);
      expect(result.error, `${args.command} ${args.path}`).toMatch(expected);
      expect(textOf(result)).not.toContain(FIFO_CONTENT);
    }
    expect(lstatSync(join(ctx.workspace, 'pipe.txt')).isFIFO()).toBe(true);
  });

  it('previews, opening with the system and step attachments refuse them; the listing leaves them out', async () => {
    for (const path of ['pipe.txt', 'sock.txt', 'pipe.png']) {
      await expect(readWorkspaceFile(ctx.workspace, path)).rejects.toMatchObject({ code: 'special_file' });
      await expect(confinedPath(ctx.workspace, path)).rejects.toMatchObject({ code: 'special_file' });
    }
    const plan = { steps: [{ attachments: ['pipe.png', 'sock.txt'] }] } as unknown as Plan;
    expect(attachedImages(plan, ctx.workspace)).toEqual([]);
    const checked = checkAttachments(ctx.workspace, ['pipe.txt', 'sock.txt', 'pipe.png']);
    expect(checked.files).toEqual([]);
    expect(checked.refused).toHaveLength(3);
    const { files } = await listWorkspace(ctx.workspace);
    const listed = files.map((file) => file.path);
    expect(listed).not.toContain('pipe.txt');
    expect(listed).not.toContain('sock.txt');
  });

  it('an upload whose name is taken by a FIFO lands under a free name, the FIFO untouched', () => {
    const saved = saveUploads(ctx.workspace, [stagedFile('dropped.txt', 'mine')]);
    expect(saved).toEqual(['uploads/dropped (1).txt']);
    expect(readFileSync(join(ctx.workspace, 'uploads', 'dropped (1).txt'), 'utf8')).toBe('mine');
    expect(lstatSync(join(ctx.workspace, 'uploads', 'dropped.txt')).isFIFO()).toBe(true);
    expect(existsSync(join(ctx.workspace, 'uploads', 'dropped (2).txt'))).toBe(false);
  });
});
