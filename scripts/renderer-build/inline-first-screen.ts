import { createHash } from 'node:crypto';
import { META_POLICY_TAG } from '../../src/main/server/csp.js';

/** the build's classic scripts (public/theme.js, public/first-screen.js), named relative to the page */
const CLASSIC_SCRIPT = /<script src="\.\/([\w-]+\.js)"><\/script>/g;
/** the entry's stylesheet: what the first screen is styled by */
const ENTRY_STYLESHEET = /<link rel="stylesheet" crossorigin href="\.\/(assets\/index-[\w-]+\.css)">/;

/** the source form of a CSP hash of an inline element's exact text */
export function hashSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

function escapedRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Removes the page's preload of `href` (a fetch for something now inline). */
function withoutPreload(html: string, href: string): string {
  return html.replace(new RegExp(`\\s*<link rel="preload"[^>]*href="${escapedRegExp(href)}"[^>]*>`), '');
}

/** `text` between its tags, refusing what would end the element early */
function inlineText(text: string, tag: 'script' | 'style', name: string): string {
  if (new RegExp(`</${tag}`, 'i').test(text)) throw new Error(`${name} cannot be inlined: it contains </${tag}`);
  return text;
}

/**
 * The built page with what its first paint waits for written into it: the classic scripts and the entry's
 * stylesheet become inline elements, their preloads go, and each is allowed by its SHA-256 in the page's
 * Content-Security-Policy (script-src and style-src keep 'self' and gain only these hashes; pagePolicy in
 * src/main/server/csp.ts accepts nothing more). The first paint then needs no request beyond the page. `read` gives
 * a built file's text by its path relative to the page.
 */
export function inlineFirstScreen(html: string, read: (path: string) => string): string {
  const scriptHashes: string[] = [];
  const styleHashes: string[] = [];
  let page = html.replace(CLASSIC_SCRIPT, (_tag, path: string) => {
    const code = inlineText(read(path), 'script', path);
    scriptHashes.push(hashSource(code));
    return `<script>${code}</script>`;
  });
  for (const href of [...html.matchAll(CLASSIC_SCRIPT)].map((match) => `./${match[1]}`)) {
    page = withoutPreload(page, href);
  }
  const stylesheet = ENTRY_STYLESHEET.exec(page);
  if (stylesheet) {
    const css = inlineText(read(stylesheet[1]), 'style', stylesheet[1]);
    styleHashes.push(hashSource(css));
    // the <link> stays, disabled (never fetched): Vite's loader of lazy chunks, which lists this stylesheet among
    // their dependencies, finds it there instead of adding it again after the chunks' own stylesheets
    const marker = `<link rel="stylesheet" crossorigin href="./${stylesheet[1]}" disabled>`;
    page = withoutPreload(
      page.replace(stylesheet[0], () => `<style>${css}</style>${marker}`),
      `./${stylesheet[1]}`,
    );
  }
  if (!META_POLICY_TAG.test(page))
    throw new Error('the page has no Content-Security-Policy meta tag to allow its inline parts');
  return page.replace(META_POLICY_TAG, (_meta, open: string, policy: string, close: string) => {
    const allowed = policy
      .split(';')
      .map((directive) => directive.trim())
      .map((directive) => {
        const [name] = directive.split(/\s+/);
        const hashes = name === 'script-src' ? scriptHashes : name === 'style-src' ? styleHashes : [];
        return [directive, ...hashes].join(' ');
      });
    return `${open}${allowed.join('; ')}${close}`;
  });
}
