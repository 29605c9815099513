import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createServer, type Plugin } from 'vite';
import { inlineFirstScreen } from './inline-first-screen.js';

/** the languages the app speaks; the first is the one in #root, the others wait in templates */
const LANGUAGES = ['en', 'zh'] as const;
type Language = (typeof LANGUAGES)[number];
const EMPTY_ROOT = '<div id="root"></div>';

interface FirstScreenModule {
  firstScreenHtml: (language: Language) => string;
}

/** #root holding the first language's first screen, then one template per other language; first-screen.js picks. */
function firstScreenMarkup(pages: Record<Language, string>): string {
  const [first, ...others] = LANGUAGES;
  return [
    `<div id="root" data-prerendered="${first}">${pages[first]}</div>`,
    ...others.map((language) => `<template data-first-screen="${language}">${pages[language]}</template>`),
  ].join('\n    ');
}

/**
 * After the renderer is built, renders the app's first screen (`entry`, loaded by Vite in Node from the same
 * sources) in each language and writes it into the built index.html, with the stylesheet and scripts its first paint
 * needs inline (inlineFirstScreen). The composer is then on screen, focused and taking keys, as soon as the page is
 * parsed, before any of the app's script has arrived; the app hydrates that markup and keeps what was typed (issue
 * 16). A build whose page has no empty #root fails here.
 */
export function prerenderFirstScreen(entry: string): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'manus:prerender-first-screen',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const server = await createServer({
        configFile: false,
        root,
        logLevel: 'error',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false },
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      try {
        const { firstScreenHtml } = (await server.ssrLoadModule(entry)) as FirstScreenModule;
        const pages = Object.fromEntries(LANGUAGES.map((language) => [language, firstScreenHtml(language)]));
        const index = join(outDir, 'index.html');
        const html = readFileSync(index, 'utf8');
        if (!html.includes(EMPTY_ROOT)) throw new Error(`${index} has no empty ${EMPTY_ROOT} to prerender into`);
        const prerendered = html.replace(EMPTY_ROOT, () => firstScreenMarkup(pages as Record<Language, string>));
        writeFileSync(
          index,
          inlineFirstScreen(prerendered, (path) => readFileSync(join(outDir, path), 'utf8')),
        );
      } finally {
        await server.close();
      }
    },
  };
}
