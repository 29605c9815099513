import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { THEME_KEY } from '../../src/renderer/src/features/prefs/preferences.js';

const RENDERER = 'src/renderer';
const THEME_SCRIPT = readFileSync(join(RENDERER, 'public/theme.js'), 'utf8');

/** Runs public/theme.js against a page whose storage holds `stored`; returns <html>'s data-theme. */
function themeAtFirstPaint(stored: Record<string, string> | 'refused'): string | undefined {
  const dataset: Record<string, string> = {};
  const localStorage = {
    getItem(key: string) {
      if (stored === 'refused') throw new Error('SecurityError');
      return stored[key] ?? null;
    },
  };
  runInNewContext(THEME_SCRIPT, { localStorage, document: { documentElement: { dataset } } });
  return dataset.theme;
}

function stylesheets(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return stylesheets(path);
    return entry.name.endsWith('.css') ? [path] : [];
  });
}

describe('theme', () => {
  it('forces the stored light or dark theme before the app loads, and follows the system otherwise', () => {
    expect(themeAtFirstPaint({ [THEME_KEY]: 'light' })).toBe('light');
    expect(themeAtFirstPaint({ [THEME_KEY]: 'dark' })).toBe('dark');
    expect(themeAtFirstPaint({ [THEME_KEY]: 'system' })).toBeUndefined();
    expect(themeAtFirstPaint({ [THEME_KEY]: '"><script>' })).toBeUndefined();
    expect(themeAtFirstPaint({})).toBeUndefined();
    expect(themeAtFirstPaint('refused')).toBeUndefined();
  });

  it('is loaded by the page before its stylesheet, as a same-origin script the CSP allows', () => {
    const html = readFileSync(join(RENDERER, 'index.html'), 'utf8');
    expect(html).toMatch(/<script src="\/theme\.js"><\/script>/);
    expect(html.indexOf('theme.js')).toBeLessThan(html.indexOf('src/main.tsx'));
  });

  it('declares every design token once, in tokens.css, with no second palette behind a media query', () => {
    const declared = new Map<string, string[]>();
    for (const path of stylesheets(join(RENDERER, 'src'))) {
      const css = readFileSync(path, 'utf8');
      expect(css, path).not.toContain('prefers-color-scheme');
      for (const [, name] of css.matchAll(/(--[\w-]+)\s*:/g))
        declared.set(name!, [...(declared.get(name!) ?? []), path]);
    }
    expect(declared.size).toBeGreaterThan(10);
    for (const [name, paths] of declared) expect(paths, name).toEqual([join(RENDERER, 'src/styles/tokens.css')]);
  });

  it('colours highlighted code from tokens, so a forced theme recolours code blocks', () => {
    const markdown = readFileSync(join(RENDERER, 'src/components/markdown.css'), 'utf8');
    const hljsColours = [...markdown.matchAll(/\.hljs-[^{]*\{[^}]*color:\s*([^;]+);/g)].map((match) => match[1]);
    expect(hljsColours.length).toBeGreaterThan(4);
    for (const colour of hljsColours) expect(colour).toMatch(/^var\(--/);
  });
});
