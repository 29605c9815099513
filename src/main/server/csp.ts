/**
 * The Content-Security-Policy of the UI, sent as a header by the web server and by the Electron session.
 * src/renderer/index.html carries the same policy in a meta tag (a test keeps them equal).
 * No inline or remote script, no plugins, no framing but local blobs, no remote fetches: model and web text is hostile.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  // the workspace panel's PDF preview is a blob: frame; HTML previews are srcdoc frames with sandbox=""
  'frame-src blob:',
  "worker-src 'self'",
].join('; ');

/** the directives whose inline elements the build may allow, one by one, by the hash of their exact text */
const HASHABLE_DIRECTIVES = new Set(['script-src', 'style-src']);
const HASH_SOURCE = /^'sha256-[A-Za-z0-9+/]{43}='$/;
/** a page's meta policy tag: its opening up to the policy, the policy, and its end */
export const META_POLICY_TAG = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)("\s*\/?>)/i;
const BASE_DIRECTIVES = CONTENT_SECURITY_POLICY.split('; ');

/** `directive` is `base`, or `base` followed by hash sources where hashes may be added. */
function isBaseWithHashes(directive: string, base: string): boolean {
  if (directive === base) return true;
  if (!directive.startsWith(`${base} `)) return false;
  const added = directive.slice(base.length + 1).split(' ');
  return HASHABLE_DIRECTIVES.has(base.split(' ')[0]) && added.every((source) => HASH_SOURCE.test(source));
}

/**
 * The policy a built page declares in its meta tag, to send as its header: the build inlines the first screen's
 * stylesheet and two small scripts and allows each by its SHA-256 in the meta tag. Accepted only when it is
 * CONTENT_SECURITY_POLICY plus hash sources in script-src and style-src; anything else (no meta tag, a policy edited
 * to allow more: 'unsafe-inline', another origin, a directive dropped) gives CONTENT_SECURITY_POLICY itself.
 */
export function pagePolicy(html: string): string {
  const declared = META_POLICY_TAG.exec(html)?.[2]
    ?.split(';')
    .map((directive) => directive.trim().split(/\s+/).join(' '))
    .filter(Boolean);
  if (declared?.length !== BASE_DIRECTIVES.length) return CONTENT_SECURITY_POLICY;
  const accepted = declared.every((directive, index) => isBaseWithHashes(directive, BASE_DIRECTIVES[index]));
  return accepted ? declared.join('; ') : CONTENT_SECURITY_POLICY;
}

/** the environment variable through which electron.vite.config.ts gives the dev server's nonce to the main process */
export const DEV_CSP_NONCE_ENV = 'MANUS_DEV_CSP_NONCE';
const NONCE = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;

/**
 * The policy of the page under `npm run dev` only: CONTENT_SECURITY_POLICY with the dev server's nonce in script-src
 * and style-src (Vite puts it on the React plugin's inline preamble and on the styles it injects). Without a valid
 * nonce, the base policy.
 */
export function devServerPolicy(nonce: string | undefined): string {
  if (!nonce || !NONCE.test(nonce)) return CONTENT_SECURITY_POLICY;
  return BASE_DIRECTIVES.map((directive) =>
    HASHABLE_DIRECTIVES.has(directive.split(' ')[0]) ? `${directive} 'nonce-${nonce}'` : directive,
  ).join('; ');
}
