import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { LineSplitter, type ProcessChannel, type ProcessExit } from './process-channel.js';

export interface ExecSpec {
  cmd: string[];
  user: string;
  env: string[];
  workingDir: string;
}

/** One `docker exec` kept open with an attached stdin: a round trip costs a write, not a new exec. */
export async function startDockerChannel(
  docker: Docker,
  container: Docker.Container,
  spec: ExecSpec,
): Promise<ProcessChannel> {
  const exec = await container.exec({
    Cmd: spec.cmd,
    User: spec.user,
    Env: spec.env,
    WorkingDir: spec.workingDir,
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
  });
  const stream = await exec.start({ hijack: true, stdin: true });
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  docker.modem.demuxStream(stream, stdout, stderr);
  const lineListeners: ((line: string) => void)[] = [];
  const stderrListeners: ((text: string) => void)[] = [];
  const splitter = new LineSplitter((line) => lineListeners.forEach((listener) => listener(line)));
  stdout.setEncoding('utf8').on('data', (text: string) => splitter.push(text));
  stderr.setEncoding('utf8').on('data', (text: string) => stderrListeners.forEach((listener) => listener(text)));
  stream.on('error', () => undefined);
  // when this driver started in the container's life: a different start time later means the container was restarted
  const containerStartedAt = container.inspect().then(
    (info) => info.State.StartedAt,
    () => undefined,
  );
  let ended = false;
  const exited = new Promise<ProcessExit>((resolve) => {
    const finish = (): void => {
      if (ended) return;
      ended = true;
      // a process killed because its container went down is a lost sandbox, not a crash of the process
      void containerStartedAt.then((startedAt) => exitOf(exec, container, startedAt)).then(resolve);
    };
    stream.on('end', finish);
    stream.on('close', finish);
    stream.on('error', finish);
  });
  return {
    write: (data) => {
      if (stream.writable) stream.write(data);
    },
    onLine: (listener) => lineListeners.push(listener),
    onStderr: (listener) => stderrListeners.push(listener),
    get ended() {
      return ended;
    },
    exited,
    kill: async (pid) => {
      // an exec has no kill endpoint: signal the pid's process group (its children too) from a second exec, then
      // close our end (the driver exits on EOF)
      if (pid !== undefined) await runQuietly(container, ['kill', '-KILL', '--', `-${pid}`, String(pid)], spec.user);
      stream.end();
      stream.destroy();
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
    },
  };
}

/** A short command in the container whose output nobody needs (kill, chmod); errors mean the target is gone. */
export async function runQuietly(container: Docker.Container, cmd: string[], user: string): Promise<number | null> {
  try {
    const exec = await container.exec({ Cmd: cmd, User: user, AttachStdout: true, AttachStderr: true });
    const stream = await exec.start({});
    stream.resume();
    await new Promise((resolve) => {
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', resolve);
    });
    return (await exec.inspect()).ExitCode;
  } catch {
    return null;
  }
}

/** A short command in the container whose standard output is wanted; undefined when it failed, timed out or the target is gone. */
export async function runForOutput(
  docker: Docker,
  container: Docker.Container,
  cmd: string[],
  user: string,
  timeoutMs: number,
): Promise<string | undefined> {
  try {
    const exec = await container.exec({ Cmd: cmd, User: user, AttachStdout: true, AttachStderr: true });
    const stream = await exec.start({});
    const stdout = new PassThrough();
    const chunks: Buffer[] = [];
    stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    docker.modem.demuxStream(stream, stdout, new PassThrough().resume());
    const ended = new Promise((resolve) => {
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', resolve);
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    const outcome = await Promise.race([ended, timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      stream.destroy();
      return undefined;
    }
    return (await exec.inspect()).ExitCode === 0 ? Buffer.concat(chunks).toString('utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** how long a SIGKILLed exec waits to see whether its whole container is going down */
const CONTAINER_DOWN_GRACE_MS = 1_000;

async function exitOf(
  exec: Docker.Exec,
  container: Docker.Container,
  startedAt: string | undefined,
): Promise<ProcessExit> {
  try {
    const info = await exec.inspect();
    if (info.Running) return { code: null, lost: true };
    const deadline = Date.now() + (info.ExitCode === 137 ? CONTAINER_DOWN_GRACE_MS : 0);
    do {
      const state = (await container.inspect()).State;
      if (!state.Running || (startedAt !== undefined && state.StartedAt !== startedAt))
        return { code: info.ExitCode, lost: true };
      if (Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    } while (Date.now() < deadline);
    return { code: info.ExitCode, lost: false };
  } catch {
    return { code: null, lost: true };
  }
}
