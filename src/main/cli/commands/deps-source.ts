/** What a command needs from the app: given directly (tests), or loaded when the command runs (the `manus` program). */
export type DepsSource<T> = T | (() => Promise<T>);

export async function resolveDeps<T extends object>(source: DepsSource<T>): Promise<T> {
  return typeof source === 'function' ? source() : source;
}
