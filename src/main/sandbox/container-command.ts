import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';

/** A short command in the container whose output is needed; its failure (or the engine's) is thrown, not hidden. */
export async function runCommand(
  docker: Docker,
  container: Docker.Container,
  cmd: string[],
  options: { user: string; workingDir?: string; timeoutMs: number; signal?: AbortSignal },
): Promise<Buffer> {
  const exec = await container.exec({
    Cmd: cmd,
    User: options.user,
    ...(options.workingDir ? { WorkingDir: options.workingDir } : {}),
    AttachStdout: true,
    AttachStderr: true,
  });
  const stream = await exec.start({});
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  const out = new PassThrough().on('data', (chunk: Buffer) => stdout.push(chunk));
  const err = new PassThrough().on('data', (chunk: Buffer) => stderr.push(chunk));
  docker.modem.demuxStream(stream, out, err);
  await new Promise<void>((resolve, reject) => {
    const stop = (why: Error): void => {
      stream.destroy();
      reject(why);
    };
    const timer = setTimeout(
      () => stop(new Error(`${cmd[0]} gave no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    const onAbort = (): void => stop(new Error(`${cmd[0]} was cancelled`));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const done = (error?: Error): void => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    };
    stream.on('end', () => done());
    stream.on('close', () => done());
    stream.on('error', done);
  });
  const { ExitCode } = await exec.inspect();
  if (ExitCode !== 0) {
    const said = Buffer.concat(stderr).toString('utf8').trim().split('\n').slice(-3).join(' | ');
    throw new Error(`${cmd[0]} in the sandbox failed (exit ${ExitCode ?? 'unknown'}): ${said}`);
  }
  return Buffer.concat(stdout);
}
