/**
 * Per-session resources (sandbox container, browser context, human channel...) created on first use
 * and disposed with the session. Each feature declares its own key; the core knows none of them.
 */
export interface ResourceKey<T> {
  readonly name: string;
  create(owner: ResourceOwner): Promise<T> | T;
  dispose?(value: T): Promise<void> | void;
}

export interface ResourceOwner {
  sessionId: string;
  workspace: string;
  resources: SessionResources;
}

export function defineResource<T>(key: ResourceKey<T>): ResourceKey<T> {
  return key;
}

interface Entry {
  key: ResourceKey<unknown>;
  value: Promise<unknown>;
}

export class SessionResources {
  private readonly entries = new Map<ResourceKey<unknown>, Entry>();
  private readonly provided = new Map<string, unknown>();

  constructor(
    readonly sessionId: string,
    readonly workspace: string,
  ) {}

  /** The resource for this key, created on first use; concurrent callers share one creation. */
  get<T>(key: ResourceKey<T>): Promise<T> {
    const existing = this.entries.get(key as ResourceKey<unknown>);
    if (existing) return existing.value as Promise<T>;
    const value = Promise.resolve().then(() =>
      key.create({ sessionId: this.sessionId, workspace: this.workspace, resources: this }),
    );
    const entry: Entry = { key: key as ResourceKey<unknown>, value };
    this.entries.set(key as ResourceKey<unknown>, entry);
    // a failed creation is forgotten so the next call can try again
    value.catch(() => {
      if (this.entries.get(key as ResourceKey<unknown>) === entry) this.entries.delete(key as ResourceKey<unknown>);
    });
    return value;
  }

  /** Whether the resource was created (or is being created). */
  has(key: ResourceKey<unknown>): boolean {
    return this.entries.has(key);
  }

  /** Plain values handed in by whoever runs the session (settings, handlers). */
  provide<T>(name: string, value: T): void {
    this.provided.set(name, value);
  }

  provision<T>(name: string): T | undefined {
    return this.provided.get(name) as T | undefined;
  }

  /** Drop one resource (e.g. a dead container) so the next `get` creates it anew. */
  async forget<T>(key: ResourceKey<T>): Promise<void> {
    const entry = this.entries.get(key as ResourceKey<unknown>);
    if (!entry) return;
    this.entries.delete(key as ResourceKey<unknown>);
    await disposeEntry(entry);
  }

  async disposeAll(): Promise<void> {
    const all = [...this.entries.values()].reverse();
    this.entries.clear();
    await Promise.all(all.map(disposeEntry));
  }
}

async function disposeEntry(entry: Entry): Promise<void> {
  try {
    const value = await entry.value;
    await entry.key.dispose?.(value);
  } catch {
    // a resource that never came up or fails to close has nothing left to release
  }
}
