import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, pagePolicy } from '../../src/main/server/csp.js';
import { hashSource, inlineFirstScreen } from '../../scripts/renderer-build/inline-first-screen.js';

/** a built page as Vite writes it, before its first screen is inlined */
const BUILT_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta
      http-equiv="Content-Security-Policy"
      content="${CONTENT_SECURITY_POLICY}"
    />
    <link rel="preload" as="script" href="./first-screen.js" />
    <link rel="modulepreload" crossorigin href="./assets/index-abc.js" />
    <link rel="preload" as="style" crossorigin href="./assets/index-def.css" />
    <script src="./theme.js"></script>
    <script type="module" crossorigin src="./assets/index-abc.js"></script>
    <link rel="stylesheet" crossorigin href="./assets/index-def.css">
  </head>
  <body>
    <div id="root"></div>
    <script src="./first-screen.js"></script>
  </body>
</html>`;

const FILES: Record<string, string> = {
  'theme.js': "document.documentElement.dataset.theme = 'dark';\n",
  'first-screen.js': "document.documentElement.lang = 'en'; // costs $1 and $& in a replacement\n",
  'assets/index-def.css': 'body{color:red}\n',
};

function withPolicy(policy: string): string {
  return BUILT_PAGE.replace(CONTENT_SECURITY_POLICY, policy);
}

describe("the built page's Content-Security-Policy", () => {
  it('inlines the classic scripts and the entry stylesheet, each allowed by its own hash and nothing else', () => {
    const page = inlineFirstScreen(BUILT_PAGE, (path) => FILES[path]);
    expect(page).toContain(`<script>${FILES['theme.js']}</script>`);
    expect(page).toContain(`<script>${FILES['first-screen.js']}</script>`);
    expect(page).toContain(`<style>${FILES['assets/index-def.css']}</style>`);
    // nothing fetched for what is inline; the module script stays a file
    expect(page).not.toMatch(/<script src=|rel="preload"/);
    expect(page).toContain('<script type="module" crossorigin src="./assets/index-abc.js"></script>');
    // the stylesheet's link stays as a disabled marker, which a browser never fetches
    expect(page).toContain('<link rel="stylesheet" crossorigin href="./assets/index-def.css" disabled>');
    const policy = pagePolicy(page);
    expect(policy).toBe(
      CONTENT_SECURITY_POLICY.replace(
        "script-src 'self'",
        `script-src 'self' ${hashSource(FILES['theme.js'])} ${hashSource(FILES['first-screen.js'])}`,
      ).replace("style-src 'self'", `style-src 'self' ${hashSource(FILES['assets/index-def.css'])}`),
    );
  });

  it('refuses to inline a file that would close its element early', () => {
    const read = (path: string) => (path === 'theme.js' ? 'x = "</script><script>alert(1)"' : FILES[path]);
    expect(() => inlineFirstScreen(BUILT_PAGE, read)).toThrow(/theme\.js cannot be inlined/);
  });

  it('is sent as the page declares it only when it adds nothing but hashes to script-src and style-src', () => {
    const hash = hashSource('anything');
    const withHashes = CONTENT_SECURITY_POLICY.replace("script-src 'self'", `script-src 'self' ${hash}`);
    expect(pagePolicy(withPolicy(withHashes))).toBe(withHashes);
    expect(pagePolicy(BUILT_PAGE)).toBe(CONTENT_SECURITY_POLICY);
    const loosened = [
      CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'"),
      CONTENT_SECURITY_POLICY.replace("script-src 'self'", `script-src 'self' ${hash} https://cdn.example`),
      CONTENT_SECURITY_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
      CONTENT_SECURITY_POLICY.replace("connect-src 'self'", `connect-src 'self' ${hash}`),
      CONTENT_SECURITY_POLICY.replace("script-src 'self'", `script-src ${hash}`),
      CONTENT_SECURITY_POLICY.replace("script-src 'self'", `script-src 'self' 'sha256-short='`),
      CONTENT_SECURITY_POLICY.replace("; object-src 'none'", ''),
      `${CONTENT_SECURITY_POLICY}; script-src-elem *`,
      CONTENT_SECURITY_POLICY.replace("default-src 'self'", 'default-src *'),
    ];
    for (const policy of loosened) expect(pagePolicy(withPolicy(policy)), policy).toBe(CONTENT_SECURITY_POLICY);
    expect(pagePolicy('<!doctype html><title>no policy</title>')).toBe(CONTENT_SECURITY_POLICY);
  });
});
