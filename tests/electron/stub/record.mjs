// The stubbed main process's channel to the test: every call the app makes on a stubbed API goes up as one message.
let nextHandle = 1;
const handles = new WeakMap();

/** a stable name for an object passed to a call (a window, a web contents), so the test can tell them apart */
export function handleOf(object, kind) {
  if (!handles.has(object)) handles.set(object, `${kind}#${nextHandle++}`);
  return handles.get(object);
}

function plain(value, seen = new Set()) {
  if (typeof value === 'function') return '[function]';
  if (value === null || typeof value !== 'object') return value;
  if (handles.has(value)) return handles.get(value);
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  if (seen.has(value)) return '[cycle]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => plain(item, seen));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item, seen)]));
}

/** the calls so far, for a test that imports the stand-in in its own process */
export const recorded = [];

/**
 * Records `name(args)`: sent to the test over IPC when it forked this process (stubbed-main.ts), else kept in
 * `recorded`; `then` runs once it is out (app.exit waits on it).
 */
export function record(name, args = [], then) {
  const message = { call: name, args: plain(args) };
  if (process.env.ELECTRON_STUB_CHANNEL === 'ipc' && process.send) {
    process.send(message, then);
    return;
  }
  recorded.push(message);
  if (process.env.ELECTRON_STUB_CHANNEL === 'stderr') process.stderr.write(`${JSON.stringify(message)}\n`);
  then?.();
}

// the keychain stand-in is CommonJS (the app require()s it) and reaches the recorder here
globalThis.electronStubRecord = record;
