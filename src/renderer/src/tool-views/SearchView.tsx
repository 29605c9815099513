import { useTranslation } from 'react-i18next';
import type { ToolItem } from '../state/session-view.js';
import { safeUrl } from '../components/Markdown.js';
import { OutputBlock } from './OutputBlock.js';

export function SearchView({ item }: { item: ToolItem }) {
  const { t } = useTranslation();
  const results = item.data?.kind === 'search' ? item.data.results : [];
  if (results.length === 0) return <OutputBlock item={item} />;
  return (
    <section className="tool-section">
      <header className="tool-section-title">{t('tool.results')}</header>
      <ol className="search-results">
        {results.map((result, index) => {
          const href = safeUrl(result.url);
          return (
            <li key={index}>
              {href ? (
                <a href={href} target="_blank" rel="noopener noreferrer nofollow">
                  {result.title}
                </a>
              ) : (
                <span>{result.title}</span>
              )}
              <div className="search-url">{result.url}</div>
              {result.snippet ? <p>{result.snippet}</p> : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
