import { Markdown } from '../components/Markdown.js';

/** Code shown highlighted through the Markdown renderer, fenced so nothing in it is read as markup. */
export function CodeView({ label, code, language }: { label: string; code: string; language: string }) {
  const longestRun = Math.max(2, ...Array.from(code.matchAll(/`+/g), (match) => match[0].length));
  const fence = '`'.repeat(longestRun + 1);
  return (
    <section className="tool-section">
      <header className="tool-section-title">{label}</header>
      <Markdown text={`${fence}${language}\n${code}\n${fence}`} />
    </section>
  );
}
