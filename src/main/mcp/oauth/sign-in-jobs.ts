import type { McpCredentialStore } from './credential-store.js';
import { signInToMcpServer, type RemoteServerConfig } from './sign-in.js';
import type { OutboundFetch } from '../../net/guarded-fetch.js';

export interface SignInProgress {
  /** waiting: the browser was sent to the authorization page; failed: the last attempt did not finish */
  state: 'waiting' | 'failed';
  authorizationUrl?: string;
  error?: string;
}

/**
 * Sign-ins started from the settings screen: each runs in the background (the person is in the browser), the
 * screen polls its progress and may cancel it; at most one per server.
 */
export class McpSignIns {
  private readonly jobs = new Map<string, { abort: AbortController; progress: SignInProgress }>();

  /** @param onChanged a sign-in ended or a sign-out happened: connections of the server should start over */
  constructor(
    private readonly store: McpCredentialStore,
    private readonly onChanged: (server: string) => void,
    private readonly openBrowser?: (url: string) => Promise<void>,
    private readonly outbound?: OutboundFetch,
  ) {}

  start(server: string, config: RemoteServerConfig): void {
    if (this.jobs.get(server)?.progress.state === 'waiting') return;
    const job = { abort: new AbortController(), progress: { state: 'waiting' } as SignInProgress };
    this.jobs.set(server, job);
    signInToMcpServer({
      server,
      config,
      store: this.store,
      signal: job.abort.signal,
      openBrowser: this.openBrowser,
      ...(this.outbound ? { outbound: this.outbound } : {}),
      onWaiting: (url) => (job.progress = { state: 'waiting', authorizationUrl: url }),
    }).then(
      () => {
        if (this.jobs.get(server) === job) this.jobs.delete(server);
        this.onChanged(server);
      },
      (error: unknown) => {
        if (this.jobs.get(server) !== job) return;
        if (job.abort.signal.aborted) this.jobs.delete(server);
        else job.progress = { state: 'failed', error: error instanceof Error ? error.message : String(error) };
      },
    );
  }

  cancel(server: string): void {
    const job = this.jobs.get(server);
    this.jobs.delete(server);
    job?.abort.abort(new Error('Sign-in cancelled.'));
  }

  progress(server: string): SignInProgress | undefined {
    return this.jobs.get(server)?.progress;
  }

  async signOut(server: string): Promise<void> {
    this.cancel(server);
    await this.store.forget(server);
    this.onChanged(server);
  }

  close(): void {
    for (const server of [...this.jobs.keys()]) this.cancel(server);
  }
}
