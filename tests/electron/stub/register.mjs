// `node --import ./register.mjs out/main/index.js`: the built main process, with `electron` (and the OS keychain
// binding) resolved to the recording stand-ins beside this file.
import Module, { register } from 'node:module';
import { fileURLToPath } from 'node:url';

const STANDINS = {
  electron: new URL('./electron.mjs', import.meta.url).href,
  '@napi-rs/keyring': new URL('./keyring.cjs', import.meta.url).href,
};

register(
  `data:text/javascript,${encodeURIComponent(`
    const standins = ${JSON.stringify(STANDINS)};
    export async function resolve(specifier, context, next) {
      if (specifier in standins) return { url: standins[specifier], shortCircuit: true };
      return next(specifier, context);
    }
  `)}`,
);

// require() (createRequire) does not pass through the hooks above in this Node: the CommonJS resolver is pointed too
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request in STANDINS) return fileURLToPath(STANDINS[request]);
  return resolveFilename.call(this, request, ...rest);
};

await import('./commands.mjs');
