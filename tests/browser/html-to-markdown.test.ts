import { describe, expect, it } from 'vitest';
import { clipText, htmlToMarkdown, markdownWithin } from '../../src/main/browser/html-to-markdown.js';

describe('HTML to Markdown', () => {
  it('keeps headings, emphasis, lists and links, and drops scripts, styles and the head', () => {
    const markdown = htmlToMarkdown(
      '<html><head><title>T</title><style>p{}</style></head><body><h2>Sub</h2><p>A <b>bold</b> <a href="https://x.test/">link</a></p>' +
        '<ul><li>one</li></ul><script>alert(1)</script><svg><text>drawn</text></svg></body></html>',
    );
    expect(markdown).toBe('## Sub\n\nA **bold** [link](https://x.test/)\n\n-   one');
  });

  it('converts only as much HTML as the limit can use, and says so', () => {
    const html = `<p>${'word '.repeat(50_000)}</p>`;
    const markdown = markdownWithin(html, 1_000);
    expect(markdown.startsWith('word word')).toBe(true);
    expect(markdown).toMatch(/\[… \d+ more characters cut\]/);
    expect(markdown).toContain(`[only the first 10000 of ${html.length} characters of HTML were read]`);
    expect(markdownWithin('<p>short</p>', 1_000)).toBe('short');
  });

  it('clips text with a note of what was cut', () => {
    expect(clipText('abcdef', 4)).toBe('abcd\n\n[… 2 more characters cut]');
    expect(clipText('abc', 4)).toBe('abc');
  });
});
