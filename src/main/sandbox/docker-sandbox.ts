import { mkdirSync, realpathSync } from 'node:fs';
import type Docker from 'dockerode';
import { BashShell } from './bash-shell.js';
import {
  CONFIG_LABEL,
  SESSION_LABEL,
  configFingerprint,
  containerSpec,
  volumeKey,
  sandboxEnv,
  sandboxIdentity,
  type SandboxIdentity,
} from './container-spec.js';
import { CONTAINER_WORKSPACE } from '../workspace/sandbox-path.js';
import { runQuietly, startDockerChannel } from './docker-channel.js';
import { BASH_SHELL_SOURCE, PYTHON_REPL_SOURCE } from './drivers/sources.js';
import type { EngineChoice } from './engine-choice.js';
import { SandboxUnavailableError, engineUnreachable, errorText, requireEngine } from './engine.js';
import { containerOwnership } from './orphan-sandboxes.js';
import { PythonRepl } from './python-repl.js';
import type { SandboxSettings } from '../../shared/settings/sandbox-settings.js';
import { ensureImage, imageExists } from './sandbox-image.js';
import { stateLostNote, type Acquired, type ProgressListener, type Sandbox } from './sandbox.js';
import { prepareManagedWorkspace, type FolderOwner } from './workspace-owner.js';
import { WorkspaceMeter } from './workspace-meter.js';
import { WorkspaceQuotaWatch, type QuotaNotice } from './workspace-quota.js';
import { WorkspaceSync } from './workspace-sync.js';
import { ensureWorkspaceVolume, removeWorkspaceVolumes } from './workspace-volume.js';

const STOP_TIMEOUT_S = 2;

export interface DockerSandboxOptions {
  docker: Docker;
  sessionId: string;
  /** host folder bind-mounted at /workspace (copied into `copyToVolume` in copy mode) */
  workspace: string;
  settings: SandboxSettings;
  /** the app made this folder for the session (under the data folder), rather than the user choosing it */
  managedWorkspace: boolean;
  /** the user running the app (default: this process's) */
  host?: FolderOwner;
  /** label of the data folder the session lives in (see OWNER_LABEL) */
  owner?: string;
  /** which engine `docker` reaches: named in errors when it stops answering */
  engine?: EngineChoice;
  /** copy mode: the workspace lives in this volume on the engine, kept in step with the host folder after each call */
  copyToVolume?: string;
}

interface LiveContainer {
  container: Docker.Container;
  /** who its processes run as (the workspace folder's owner when the host user is root) */
  identity: SandboxIdentity;
  /** the host folder it was placed with (bind-mounted at /workspace unless in copy mode) */
  folder: string;
  /** changes when someone restarts the container under us: its processes (our drivers) are gone ('' until known) */
  startedAt: string;
  /** the first inspection after start, still under way while `startedAt` is '' */
  learning?: Promise<unknown>;
}

/** How `ensureContainer` came to have a running container. */
type BringUp = 'running' | 'restarted' | 'adopted' | 'created';

interface WorkspacePlacement {
  /** the workspace folder, links in its path resolved */
  folder: string;
  identity: SandboxIdentity;
}

/** One session's container and its two long-lived drivers, created lazily and recovered when they die. */
export class DockerSandbox implements Sandbox {
  readonly kind = 'docker';
  readonly workspaceInside = CONTAINER_WORKSPACE;
  private live: LiveContainer | undefined;
  private python: PythonRepl | undefined;
  private shell: BashShell | undefined;
  /** the loss of a driver was already told to the model by the call that saw it */
  private readonly lossReported = { python: false, shell: false };
  private stoppedForIdle = false;
  private activeCalls = 0;
  /** how the warm-up brought the container up, until a call is handed a driver: undone if none is */
  private warmedUp: Exclude<BringUp, 'running'> | undefined;
  /** what the warm-up's bring-up said (state reset, reconnected), for the first call to tell the model */
  private warmUpNotes: string[] = [];
  private warming: Promise<void> | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private containerLock: Promise<unknown> = Promise.resolve();
  private disposed = false;
  private quota: WorkspaceQuotaWatch | undefined;
  /** times the workspace quota stopped every sandbox process, and how many of those the model was told */
  private breaches = 0;
  private reportedBreaches = 0;
  private lastBreach: QuotaNotice | undefined;
  /** copy mode: keeps the volume and the host folder in step (made for the folder and user it was placed with) */
  private sync: { folder: string; user: string; sync: WorkspaceSync } | undefined;
  /** copy mode: one sync at a time, whichever call starts or ends */
  private syncLock: Promise<unknown> = Promise.resolve();
  /** copy mode: what the last pull could not carry, told with the next call */
  private pendingSyncNotes: string[] = [];
  /** copy mode: the last pull failed (engine gone): the next call brings the files back first */
  private pullPending = false;
  /** copy mode: a call ran since the last pull, so the sandbox may hold changes for the host */
  private pullDue = false;

  constructor(private readonly options: DockerSandboxOptions) {}

  get containerId(): string | undefined {
    return this.live?.container.id;
  }

  acquirePython(onProgress?: ProgressListener): Promise<Acquired<PythonRepl>> {
    return this.acquire(
      'python',
      onProgress,
      () => this.python,
      async (live) => {
        this.python = await PythonRepl.start(await this.openDriver(live, PYTHON_REPL_SOURCE));
        return this.python;
      },
    );
  }

  acquireShell(onProgress?: ProgressListener): Promise<Acquired<BashShell>> {
    return this.acquire(
      'shell',
      onProgress,
      () => this.shell,
      async (live) => {
        this.shell = await BashShell.start(await this.openDriver(live, BASH_SHELL_SOURCE));
        return this.shell;
      },
    );
  }

  /** The live driver, or a new one (in a new container if need be); concurrent callers share one start. */
  private async acquire<T extends { alive: boolean }>(
    kind: 'python' | 'shell',
    onProgress: ProgressListener | undefined,
    current: () => T | undefined,
    start: (live: LiveContainer) => Promise<T>,
  ): Promise<Acquired<T>> {
    this.beginCall();
    const quotaMark = this.breaches;
    try {
      const existing = current();
      const acquired =
        existing?.alive === true
          ? { driver: existing, notes: this.warmUpNotes.splice(0) }
          : await this.serialized(async () => {
              const previous = current();
              if (previous?.alive) return { driver: previous, notes: this.warmUpNotes.splice(0) };
              const { notes } = await this.ensureContainer(onProgress);
              notes.unshift(...this.warmUpNotes.splice(0));
              if (previous && !this.lossReported[kind]) notes.push(stateLostNote(kind, 'it stopped between calls'));
              const driver = await start(this.requireLive());
              this.lossReported[kind] = false;
              return { driver, notes };
            });
      // the container is in use: the turn's end leaves it as it is
      this.warmedUp = undefined;
      const synced = await this.syncIn();
      const breach = this.unreportedBreach();
      const notes = [...(breach ? [breach] : []), ...acquired.notes, ...synced];
      return { ...acquired, notes, quotaMark };
    } catch (error) {
      await this.release();
      throw wrapEngineError(error, this.options.engine);
    }
  }

  /**
   * Brings the container and both drivers up ahead of the first call, unless the container is up already. Quiet: a
   * failure (no engine, no image) is left for the first call to meet and report. A missing image is not pulled.
   */
  warmUpDrivers(signal: AbortSignal): Promise<void> {
    this.warming = this.serialized(async () => {
      if (this.disposed || signal.aborted || (this.live && !this.stoppedForIdle)) return;
      const { docker, settings } = this.options;
      if (!(await imageExists(docker, settings.image)) || signal.aborted) return;
      try {
        const { notes, bringUp } = await this.ensureContainer();
        if (bringUp !== 'running') this.warmedUp = bringUp;
        this.warmUpNotes.push(...notes);
        if (signal.aborted || this.disposed) return;
        const live = this.requireLive();
        await Promise.all([
          (async () => {
            if (!this.python?.alive)
              this.python = await PythonRepl.start(await this.openDriver(live, PYTHON_REPL_SOURCE));
          })(),
          (async () => {
            if (!this.shell?.alive) this.shell = await BashShell.start(await this.openDriver(live, BASH_SHELL_SOURCE));
          })(),
        ]);
      } catch {
        // the first call that needs the sandbox tries again and reports what fails
      }
      this.armIdleTimer();
    });
    return this.warming;
  }

  /** A warm-up under way finishes (it stops early once disposed), and what it brought up unused is undone. */
  private async settleWarmUp(): Promise<void> {
    await this.warming;
    if (this.warmedUp) await this.coolDownUnused();
  }

  /**
   * The turn ended: a container the warm-up brought up that no call used goes back to how it was (a new one is
   * removed, one adopted or restarted is stopped), so a session that never ran code keeps nothing running.
   */
  async coolDownUnused(): Promise<void> {
    await this.serialized(async () => {
      const bringUp = this.warmedUp;
      this.warmedUp = undefined;
      if (!bringUp || this.activeCalls > 0 || !this.live) return;
      // a new container's notes (the old one was lost) still hold for the next one; the others would be said again
      if (bringUp !== 'created') this.warmUpNotes = [];
      if (bringUp === 'restarted') return this.stopForIdle();
      clearTimeout(this.idleTimer);
      this.stopQuotaWatch();
      await this.stopDrivers();
      const live = this.live;
      this.live = undefined;
      // the drivers were never used: the model learns nothing of them
      this.lossReported.python = false;
      this.lossReported.shell = false;
      this.python = undefined;
      this.shell = undefined;
      if (bringUp === 'created') await live.container.remove({ force: true }).catch(() => undefined);
      else await live.container.stop({ t: STOP_TIMEOUT_S }).catch(() => undefined);
    });
  }

  private openDriver(live: LiveContainer, source: string): ReturnType<typeof startDockerChannel> {
    return startDockerChannel(this.options.docker, live.container, {
      cmd: ['python3', '-u', '-c', source],
      user: live.identity.user,
      env: sandboxEnv(),
      workingDir: CONTAINER_WORKSPACE,
    });
  }

  /** The tool that saw the driver die already told the model; the next acquire need not say it again. */
  markLossReported(what: 'python' | 'shell'): void {
    this.lossReported[what] = true;
  }

  async quotaAfterCall(quotaMark: number): Promise<QuotaNotice | undefined> {
    await this.quota?.checkAfterCall();
    if (this.breaches > quotaMark && this.lastBreach) {
      this.reportedBreaches = this.breaches;
      return this.lastBreach;
    }
    return this.quota?.overQuota();
  }

  async release(): Promise<void> {
    this.activeCalls = Math.max(0, this.activeCalls - 1);
    await this.syncOut();
    this.armIdleTimer();
  }

  /** copy mode, before a call: files the last pull missed come back, then the host's changes go in. */
  private async syncIn(): Promise<string[]> {
    const sync = this.sync?.sync;
    if (!sync) return [];
    const live = this.requireLive();
    return this.syncSerialized(async () => {
      const notes = this.pendingSyncNotes.splice(0);
      if (this.pullPending) {
        notes.push(...(await sync.pullSandboxChanges(live.container)).notes);
        this.pullPending = false;
      }
      notes.push(...(await sync.pushHostChanges(live.container)).notes);
      this.pullDue = true;
      return notes;
    });
  }

  /** copy mode, after a call: what it changed comes back to the host folder (a failure is retried at the next call). */
  private async syncOut(): Promise<void> {
    const sync = this.sync?.sync;
    const live = this.live;
    if (!sync || !live || !(this.pullDue || this.pullPending)) return;
    await this.syncSerialized(async () => {
      this.pullDue = false;
      try {
        this.pendingSyncNotes.push(...(await sync.pullSandboxChanges(live.container)).notes);
        this.pullPending = false;
      } catch (error) {
        this.pullPending = true;
        this.pendingSyncNotes.push(
          `[The files changed by the last call could not be brought back to the user's folder yet (${errorText(error)}); ` +
            'they are brought back before the next call runs.]',
        );
      }
    });
  }

  /** copy mode: what background jobs wrote since the last call comes back before the container stops */
  private async bringBackBeforeStop(): Promise<void> {
    if (!this.sync) return;
    this.pullDue = true;
    await this.syncOut();
  }

  private syncSerialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.syncLock.then(work, work);
    this.syncLock = next.catch(() => undefined);
    return next;
  }

  /** copy mode: the sync of this folder and user (a new one when either changed: what the old one knew is void). */
  private syncFor({ folder, identity }: WorkspacePlacement): void {
    const { copyToVolume, docker } = this.options;
    if (!copyToVolume || (this.sync?.folder === folder && this.sync.user === identity.user)) return;
    this.sync?.sync.close();
    // what comes back to the host is held to the workspace quota too, whatever the meter in the sandbox says
    const quotaMb = this.options.settings.workspaceQuotaMb;
    this.sync = {
      folder,
      user: identity.user,
      sync: new WorkspaceSync({ docker, workspace: folder, identity, quotaMb }),
    };
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.settleWarmUp();
    clearTimeout(this.idleTimer);
    this.stopQuotaWatch();
    await this.stopDrivers();
    await this.bringBackBeforeStop();
    const live = this.live;
    this.live = undefined;
    if (live) await live.container.stop({ t: STOP_TIMEOUT_S }).catch(() => undefined);
  }

  /** The session is gone: its container goes too. */
  async destroy(): Promise<void> {
    this.disposed = true;
    await this.warming;
    clearTimeout(this.idleTimer);
    this.stopQuotaWatch();
    await this.stopDrivers();
    const live = this.live;
    this.live = undefined;
    if (live) await live.container.remove({ force: true }).catch(() => undefined);
    if (this.options.copyToVolume) {
      await removeWorkspaceVolumes(this.options.docker, this.options.sessionId).catch(() => undefined);
    }
  }

  private beginCall(): void {
    if (this.disposed) throw new SandboxUnavailableError('This session has ended: its sandbox was shut down.');
    this.activeCalls++;
    clearTimeout(this.idleTimer);
    this.quota?.hurry();
  }

  private armIdleTimer(): void {
    clearTimeout(this.idleTimer);
    if (this.disposed || this.activeCalls > 0 || !this.live) return;
    this.idleTimer = setTimeout(() => void this.stopForIdle(), this.options.settings.idleTimeoutMs);
    this.idleTimer.unref();
  }

  /** Stops the container unless a call is under way; the next call starts it again, saying state was reset. */
  async stopForIdle(): Promise<void> {
    if (this.activeCalls > 0 || !this.live) return;
    this.stopQuotaWatch();
    await this.stopDrivers();
    await this.bringBackBeforeStop();
    this.stoppedForIdle = true;
    await this.live.container.stop({ t: STOP_TIMEOUT_S }).catch(() => undefined);
  }

  private async stopDrivers(): Promise<void> {
    this.sync?.sync.close();
    const drivers = [this.python, this.shell];
    if (this.python) this.lossReported.python = true;
    if (this.shell) this.lossReported.shell = true;
    await Promise.all(drivers.map((driver) => driver?.kill().catch(() => undefined)));
  }

  /** Watches the workspace's size while this container lives (see WorkspaceQuotaWatch). */
  private async startQuotaWatch(live: LiveContainer): Promise<void> {
    this.stopQuotaWatch();
    const { docker, settings } = this.options;
    if (settings.workspaceQuotaMb === 0) return;
    const meter = new WorkspaceMeter({
      docker,
      container: live.container,
      user: live.identity.user,
      // a bind-mounted workspace is walked from here, out of the sandbox's reach
      ...(this.options.copyToVolume ? {} : { hostFolder: live.folder }),
    });
    const watch = new WorkspaceQuotaWatch({
      quotaMb: settings.workspaceQuotaMb,
      measure: () => meter.measure(),
      close: () => meter.close(),
      // every process of the sandbox's user; the keeper runs as another uid, so the container stays up
      stopAll: async () => {
        await runQuietly(live.container, ['kill', '-KILL', '-1'], live.identity.user);
        // seen dead before the next call could pick them up (the notice says that all state was reset)
        await this.stopDrivers();
      },
      busy: () => this.activeCalls > 0,
      onBreach: (notice) => {
        this.breaches++;
        this.lastBreach = notice;
      },
    });
    this.quota = watch;
    await watch.start();
  }

  private stopQuotaWatch(): void {
    this.quota?.stop();
    this.quota = undefined;
  }

  /** A quota breach between calls (a background writer) is told to the next call. */
  private unreportedBreach(): string | undefined {
    if (this.breaches === this.reportedBreaches || !this.lastBreach) return undefined;
    this.reportedBreaches = this.breaches;
    return `[${this.lastBreach.text}]`;
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.containerLock.then(work, work);
    this.containerLock = next.catch(() => undefined);
    return next;
  }

  private requireLive(): LiveContainer {
    if (!this.live) throw new SandboxUnavailableError('The sandbox container is not running.');
    return this.live;
  }

  /** A running container for this session: the current one, an adopted one from an earlier run, or a new one. */
  private async ensureContainer(onProgress?: ProgressListener): Promise<{ notes: string[]; bringUp: BringUp }> {
    const notes: string[] = [];
    if (this.live) {
      // the start time asked for right after start answers first; comparing before it is known would miss a restart
      await this.live.learning;
      const state = await inspectState(this.live.container);
      if (state?.running && (state.startedAt === this.live.startedAt || this.live.startedAt === '')) {
        return { notes, bringUp: 'running' };
      }
      if (state && !state.running && this.stoppedForIdle) {
        await this.live.container.start().catch(() => undefined);
        const restarted = await inspectState(this.live.container);
        if (restarted?.running) {
          this.live = { ...this.live, startedAt: restarted.startedAt, learning: undefined };
          this.stoppedForIdle = false;
          await this.startQuotaWatch(this.live);
          const idleMinutes = Math.round(this.options.settings.idleTimeoutMs / 6000) / 10;
          notes.push(
            `[The sandbox had been stopped after ${idleMinutes} min without use (or to keep few idle sandboxes running) ` +
              'and was started again: Python variables, ' +
              'shell state and background jobs were reset; files in /workspace are kept.]',
          );
          return { notes, bringUp: 'restarted' };
        }
      }
      notes.push(
        '[The sandbox container had stopped (Docker engine restart, crash or kill). A new container was started: ' +
          'Python variables, shell state, background jobs and files outside /workspace were lost; files in /workspace are kept.]',
      );
      this.lossReported.python = true;
      this.lossReported.shell = true;
      this.stopQuotaWatch();
      await this.live.container.remove({ force: true }).catch(() => undefined);
      this.live = undefined;
    }
    const placement = this.placeWorkspace();
    this.syncFor(placement);
    // side by side: the engine check only adds its clearer error when the engine is down
    const [, adopted] = await Promise.all([
      requireEngine(this.options.docker, this.options.engine),
      this.adoptExisting(placement),
    ]);
    if (adopted) {
      notes.push(
        "[Reconnected to this session's existing sandbox container: the Python interpreter and shell were restarted, " +
          'so earlier variables and shell state are gone; files in /workspace are kept.]',
      );
    }
    this.live = adopted ?? (await this.createContainer(placement, onProgress));
    this.stoppedForIdle = false;
    await this.startQuotaWatch(this.live);
    return { notes, bringUp: adopted ? 'adopted' : 'created' };
  }

  /** The folder to mount and who runs in it, read afresh whenever a container is adopted or made. */
  private placeWorkspace(): WorkspacePlacement {
    const { workspace, managedWorkspace, host } = this.options;
    try {
      if (managedWorkspace) prepareManagedWorkspace(workspace, host);
      else mkdirSync(workspace, { recursive: true });
      // links in the path the user named are resolved once: the folder whose owner is read is the folder mounted
      const folder = realpathSync(workspace);
      return { folder, identity: sandboxIdentity(folder, host) };
    } catch (error) {
      throw new SandboxUnavailableError(`The workspace folder ${workspace} cannot be used: ${errorText(error)}`);
    }
  }

  /** A container this session left behind (earlier turn, app restart) is reused when it was made with the same settings. */
  private async adoptExisting({ folder, identity }: WorkspacePlacement): Promise<LiveContainer | undefined> {
    const { docker, sessionId, settings } = this.options;
    const found = await docker.listContainers({ all: true, filters: { label: [`${SESSION_LABEL}=${sessionId}`] } });
    // a container made for another uid, folder (or volume) or settings is replaced
    const fingerprint = configFingerprint(settings, identity, this.mountKey(folder));
    let adopted: LiveContainer | undefined;
    for (const info of found) {
      const ownership = containerOwnership(info.Labels);
      // another live process's container of this session (the app between turns) is that process's to keep
      if (ownership === 'another process') continue;
      const container = docker.getContainer(info.Id);
      // a container of a process that is gone names a dead owner: the next start would sweep it away under us
      if (adopted || ownership === 'nobody' || info.Labels[CONFIG_LABEL] !== fingerprint) {
        await container.remove({ force: true }).catch(() => undefined);
        continue;
      }
      if (info.State !== 'running') await container.start().catch(() => undefined);
      const state = await inspectState(container);
      if (state?.running) adopted = { container, identity, folder, startedAt: state.startedAt };
      else await container.remove({ force: true }).catch(() => undefined);
    }
    return adopted;
  }

  /** what the container's fingerprint names as its workspace: the host folder, or the volume in copy mode */
  private mountKey(folder: string): string {
    const { copyToVolume } = this.options;
    return copyToVolume ? volumeKey(copyToVolume) : folder;
  }

  private async createContainer(
    { folder, identity }: WorkspacePlacement,
    onProgress?: ProgressListener,
  ): Promise<LiveContainer> {
    const { docker, sessionId, settings, copyToVolume } = this.options;
    await ensureImage(docker, settings.image, onProgress, this.options.engine);
    if (copyToVolume) {
      const root = { image: settings.image, uid: identity.uid, gid: identity.gid };
      const labels = { sessionId, owner: this.options.owner };
      // a new, empty volume: whatever the sync knew of an old one no longer holds
      if (await ensureWorkspaceVolume(docker, copyToVolume, labels, root)) this.sync?.sync.reset();
    }
    onProgress?.('Starting the sandbox container');
    const container = await docker.createContainer(
      containerSpec(settings, sessionId, folder, identity, this.options.owner, copyToVolume),
    );
    try {
      await container.start();
    } catch (error) {
      await container.remove({ force: true }).catch(() => undefined);
      throw new SandboxUnavailableError(`The sandbox container could not start: ${errorText(error)}`);
    }
    const live: LiveContainer = { container, identity, folder, startedAt: '' };
    // learnt in the background: the first driver need not wait for it (a container that died at once fails its exec)
    live.learning = inspectState(container).then((state) => {
      if (state) live.startedAt = state.startedAt;
      live.learning = undefined;
    });
    return live;
  }
}

async function inspectState(container: Docker.Container): Promise<{ running: boolean; startedAt: string } | undefined> {
  try {
    const info = await container.inspect();
    return { running: info.State.Running, startedAt: info.State.StartedAt };
  } catch {
    return undefined;
  }
}

/** Engine-level failures (socket refused, daemon gone) become the readable "start Docker" error. */
function wrapEngineError(error: unknown, engine: EngineChoice | undefined): Error {
  if (error instanceof SandboxUnavailableError) return error;
  const text = errorText(error);
  if (/ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOENT|EACCES|socket hang up|connect/i.test(text)) {
    return engineUnreachable(text, engine);
  }
  return error instanceof Error ? error : new Error(text);
}
