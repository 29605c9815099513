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
