import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { CoreEventInput } from '../../src/shared/events.js';
import { openStore, type Store } from '../../src/main/store/store.js';
import type { UnsequencedEvent } from '../../src/main/store/store-api.js';

const cleanups: (() => void)[] = [];

afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

/** A fresh folder under the OS temp dir, removed after the test. */
export function tempDir(prefix = 'manus-store-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A store on a fresh data folder, closed after the test. */
export function tempStore(): { store: Store; dataDir: string } {
  const dataDir = tempDir();
  const store = openStore(dataDir);
  cleanups.push(() => store.close());
  return { store, dataDir };
}

export function stamped(event: CoreEventInput): UnsequencedEvent {
  return { ...event, ts: Date.now() } as UnsequencedEvent;
}

export function messageEvent(
  sessionId: string,
  text: string,
  options: { role?: 'user' | 'assistant' | 'system'; delta?: boolean; messageId?: string } = {},
): UnsequencedEvent {
  return stamped({
    type: 'message',
    sessionId,
    messageId: options.messageId ?? `m-${Math.random().toString(36).slice(2)}`,
    role: options.role ?? 'assistant',
    text,
    delta: options.delta ?? false,
  });
}

export function newSession(store: Store, title = 'A session', extra: { id?: string; workspace?: string } = {}) {
  return store.createSession({
    title,
    mode: 'agent',
    model: 'gpt-test',
    workspace: extra.workspace ?? '/tmp/ws',
    id: extra.id,
  });
}
