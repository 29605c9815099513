// A stand-in for @napi-rs/keyring (the OS keychain): entries live in memory, every call is recorded to the test.
// ELECTRON_STUB_KEYRING=missing makes it fail to load, as when npm installed the native package of another CPU.
if (process.env.ELECTRON_STUB_KEYRING === 'missing') {
  throw new Error('Cannot find module @napi-rs/keyring-linux-x64-gnu');
}
const entries = new Map();
// record.mjs, loaded with the stand-ins before the app (register.mjs), puts its recorder here for CommonJS
const record = (...args) => globalThis.electronStubRecord(...args);

class Entry {
  constructor(service, account) {
    this.key = `${service}\u0000${account}`;
    record('keyring.Entry', [service, account]);
  }
  getPassword() {
    record('keyring.getPassword');
    return entries.get(this.key) ?? null;
  }
  setPassword(value) {
    record('keyring.setPassword');
    entries.set(this.key, value);
  }
}
module.exports = { Entry };
