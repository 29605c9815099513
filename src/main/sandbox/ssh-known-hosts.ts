import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const SSH_PORT = 22;
const SYSTEM_KNOWN_HOSTS = '/etc/ssh/ssh_known_hosts';
const HASHED_PREFIX = '|1|';

/** The known_hosts files OpenSSH reads: the user's, then the system's. */
export function knownHostsFiles(home: string = homedir()): string[] {
  return [join(home, '.ssh', 'known_hosts'), SYSTEM_KNOWN_HOSTS];
}

/**
 * A host key check as OpenSSH makes it, for docker-modem's SSH connections (ssh2 accepts any host key unless told):
 * the key the server shows must be recorded for this host (and port) in known_hosts, plain or hashed; a key marked
 * @revoked never passes. Without this, anyone on the path could pose as the engine and receive the workspace.
 */
export function knownHostVerifier(host: string, port: number, files: string[]): (key: Buffer) => boolean {
  const name = port === SSH_PORT ? host : `[${host}]:${port}`;
  return (key) => {
    let known = false;
    for (const line of knownHostLines(files)) {
      const fields = line.split(/\s+/);
      const revoked = fields[0] === '@revoked';
      if (fields[0]?.startsWith('@') && !revoked) continue;
      const [hosts, , encoded] = revoked ? fields.slice(1) : fields;
      if (!hosts || !encoded || !hostMatches(hosts, name)) continue;
      const recorded = Buffer.from(encoded, 'base64');
      if (recorded.length !== key.length || !timingSafeEqual(recorded, key)) continue;
      if (revoked) return false;
      known = true;
    }
    return known;
  };
}

/** What to tell the user when the check refused the server. */
export function unknownHostHint(host: string, port: number, user: string | undefined): string {
  const target = `${user ? `${user}@` : ''}${host}`;
  const portFlag = port === SSH_PORT ? '' : ` -p ${port}`;
  return (
    `its SSH host key is not recorded in ~/.ssh/known_hosts (or differs from the one recorded). Connect once with ` +
    `\`ssh${portFlag} ${target}\` to check the fingerprint and record it, then try again`
  );
}

function knownHostLines(files: string[]): string[] {
  return files
    .filter((file) => existsSync(file))
    .flatMap((file) => readFileSync(file, 'utf8').split('\n'))
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** A known_hosts host field: comma-separated patterns (`*`, `?`, `!` negation) or one hashed name. */
function hostMatches(field: string, name: string): boolean {
  if (field.startsWith(HASHED_PREFIX)) {
    const [salt, hash] = field.slice(HASHED_PREFIX.length).split('|');
    if (!salt || !hash) return false;
    const computed = createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest();
    const expected = Buffer.from(hash, 'base64');
    return computed.length === expected.length && timingSafeEqual(computed, expected);
  }
  let matched = false;
  for (const pattern of field.split(',')) {
    const negated = pattern.startsWith('!');
    if (!globMatches(negated ? pattern.slice(1) : pattern, name)) continue;
    if (negated) return false;
    matched = true;
  }
  return matched;
}

function globMatches(pattern: string, name: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, 'i').test(name);
}
