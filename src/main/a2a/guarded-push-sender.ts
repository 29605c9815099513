import type { StreamResponse, Task } from '@a2a-js/sdk';
import {
  V1PushNotificationSerializer,
  type PushNotificationSender,
  type PushNotificationSerializer,
  type PushNotificationStore,
  type ServerCallContext,
  type StoredPushNotificationConfig,
} from '@a2a-js/sdk/server';
import { V03PushNotificationSerializer } from '@a2a-js/sdk/compat/v0_3/server';
import type { OutboundFetch } from '../net/guarded-fetch.js';

/** One webhook call may take this long before it is given up. */
const PUSH_TIMEOUT_MS = 5_000;
/** The A2A header that carries the token the client registered with its webhook. */
const NOTIFICATION_TOKEN_HEADER = 'X-A2A-Notification-Token';

/** Why one push did not arrive: the webhook's URL and the refusal or failure. */
export type PushFailure = (url: string, error: Error) => void;

function taskIdOf(update: StreamResponse): string {
  const payload = update.payload;
  if (!payload) return '';
  return payload.$case === 'task' ? payload.value.id : payload.value.taskId;
}

function authHeaders(config: StoredPushNotificationConfig['config']): Record<string, string> {
  const { authentication, token } = config;
  if (authentication?.scheme && authentication.credentials)
    return { Authorization: `${authentication.scheme} ${authentication.credentials}` };
  return token ? { [NOTIFICATION_TOKEN_HEADER]: token } : {};
}

/**
 * The SDK's push sender posts with the global fetch, which would let a client point a webhook at this machine or its
 * network; this one posts every update through the egress policy (browser.allowPrivateNetwork, redirects re-checked),
 * in the body shape of the protocol version the webhook was registered over, in order per task.
 */
export class GuardedPushNotificationSender implements PushNotificationSender {
  private readonly serializers = new Map<string, PushNotificationSerializer>([
    ['1.0', new V1PushNotificationSerializer()],
    ['0.3', new V03PushNotificationSerializer()],
  ]);
  /** the last dispatch of each task, so its updates arrive in the order they happened */
  private readonly pendingByTask = new Map<string, Promise<void>>();

  constructor(
    private readonly store: PushNotificationStore,
    private readonly outbound: OutboundFetch,
    private readonly onFailure: PushFailure,
  ) {}

  async send(update: StreamResponse, context: ServerCallContext, task?: Task): Promise<void> {
    const taskId = taskIdOf(update);
    if (!taskId) return;
    const configs = await this.storedConfigs(taskId, context);
    if (configs.length === 0) return;
    const previous = this.pendingByTask.get(taskId) ?? Promise.resolve();
    const dispatch = previous
      .then(() => Promise.all(configs.map((stored) => this.post(update, stored, task))))
      .then(() => undefined);
    this.pendingByTask.set(taskId, dispatch);
    await dispatch;
    if (this.pendingByTask.get(taskId) === dispatch) this.pendingByTask.delete(taskId);
  }

  private async storedConfigs(taskId: string, context: ServerCallContext): Promise<StoredPushNotificationConfig[]> {
    if (this.store.loadWithMetadata) return this.store.loadWithMetadata(taskId, context);
    const wireVersion = context.requestedVersion ?? '0.3';
    return (await this.store.load(taskId, context)).map((config) => ({ config, wireVersion }));
  }

  /** Never throws: a webhook that fails or is refused must not stop the task or the other webhooks. */
  private async post(update: StreamResponse, stored: StoredPushNotificationConfig, task?: Task): Promise<void> {
    const { config, wireVersion } = stored;
    try {
      const serializer = this.serializers.get(wireVersion) ?? this.serializers.get('1.0')!;
      const { body, contentType } = serializer.serialize(update, task);
      const response = await this.outbound()(config.url, {
        method: 'POST',
        headers: { 'Content-Type': contentType, ...authHeaders(config) },
        body,
        signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
      });
      await response.body?.cancel();
      if (!response.ok) throw new Error(`the webhook answered HTTP ${response.status}`);
    } catch (error) {
      this.onFailure(config.url, error instanceof Error ? error : new Error(String(error)));
    }
  }
}
