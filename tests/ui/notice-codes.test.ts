import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { appTranslators } from '../support/app-translators.js';
import { en } from '../../src/renderer/src/i18n/en.js';
import { zh } from '../../src/renderer/src/i18n/zh.js';
import { NOTICE_CODES, NOTICE_PARAMS, noticeReasons, type NoticeCode } from '../../src/shared/notice-codes.js';
import { readableNotice } from '../../src/renderer/src/lib/core-messages.js';

type Texts = Record<string, string>;
const LANGUAGES = { en, zh } as const;

/** The texts a notice key may have in one language: its own, or its plural forms. */
function templates(language: keyof typeof LANGUAGES, key: string): Texts {
  const blocks: Texts[] = [
    LANGUAGES[language].coreMessages.notices as Texts,
    LANGUAGES[language].planAct.notices as Texts,
  ];
  const found: Texts = {};
  for (const block of blocks) {
    for (const name of [key, `${key}_one`, `${key}_other`]) if (block[name]) found[name] ??= block[name];
  }
  return found;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]);

/** Each code's own text, and one per reason it lists */
const keys: [NoticeCode, string][] = NOTICE_CODES.flatMap((code) => [
  [code, code] as [NoticeCode, string],
  ...noticeReasons(code).map((reason) => [code, `${code}_${reason}`] as [NoticeCode, string]),
]);

/** values a notice of `code` could carry, the reason of `key` among them */
function sampleParams(code: NoticeCode, key: string): Record<string, string | number> {
  const params: Record<string, string | number> = {};
  for (const [name, kind] of Object.entries(NOTICE_PARAMS[code] as Record<string, unknown>)) {
    if (Array.isArray(kind)) {
      const reason = key.slice(code.length + 1);
      if (reason) params[name] = reason;
    } else params[name] = String(kind).startsWith('number') ? 3 : `‹${name}›`;
  }
  return params;
}

let tZh: TFunction;
beforeAll(async () => {
  ({ zh: tZh } = await appTranslators());
});

describe('every notice the core emits has a text in both languages', () => {
  it.each(keys)('%s: %s has en and zh texts naming only the values the code gives', (code, key) => {
    const given = Object.keys(NOTICE_PARAMS[code]);
    for (const language of ['en', 'zh'] as const) {
      const texts = templates(language, key);
      expect(Object.keys(texts), `${language} has no text for ${key}`).not.toEqual([]);
      for (const [name, text] of Object.entries(texts)) {
        for (const param of placeholders(text))
          expect(given, `${language} ${name} names {{${param}}}`).toContain(param);
        // a count in the text is said through the plural forms, never one text for every number
        if (placeholders(text).includes('count')) expect(name, `${language} ${name}`).toMatch(/_(one|other)$/);
      }
      if (language === 'en' && Object.keys(texts).some((name) => name.endsWith('_other'))) {
        expect(Object.keys(texts), `en ${key} has both plural forms`).toEqual(
          expect.arrayContaining([`${key}_one`, `${key}_other`]),
        );
      }
    }
  });

  it.each(keys)('%s: %s reads in Chinese with its values filled in', (code, key) => {
    const params = sampleParams(code, key);
    const english = 'ENGLISH TEXT';
    const shown = readableNotice(tZh, code, english, Object.keys(params).length ? params : undefined);
    expect(shown).not.toBe(english);
    expect(shown).not.toMatch(/\{\{|\}\}/);
    expect(shown).toMatch(/[\u4e00-\u9fff]/);
  });

  it('a stored notice without the values its text needs keeps its English text', () => {
    expect(readableNotice(tZh, 'mcp_failed', 'MCP server "x" is not available: boom')).toBe(
      'MCP server "x" is not available: boom',
    );
    expect(readableNotice(tZh, 'local_sandbox', 'Sandbox mode is "local"')).toMatch(/沙箱处于本地模式/);
  });
});

describe('notices are made only through the list', () => {
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
    );

  it('no file of the core writes a notice event by hand (noticeEvent checks its code and values)', () => {
    const byHand = sources('src/main').filter((file) => /type:\s*'notice'\s*,/.test(readFileSync(file, 'utf8')));
    expect(byHand).toEqual([]);
  });
});
