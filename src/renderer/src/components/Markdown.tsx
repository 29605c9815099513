import { memo, useEffect, useRef, type ComponentProps, type ReactElement } from 'react';
import renderMarkdown, { defaultUrlTransform, type Components, type Options } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import rehypeSanitize from 'rehype-sanitize';
import { CopyButton } from './CopyButton.js';
import { onCodeHighlightLoaded, requestCodeHighlight, useCodeHighlight } from './code-highlight.js';
import './markdown.css';

/** Only these leave the app as links; `javascript:`, `data:`, `file:` and the rest are dropped. */
const SAFE_LINK = /^(https?:|mailto:|#)/i;

export function safeUrl(url: string): string {
  const transformed = defaultUrlTransform(url);
  return SAFE_LINK.test(transformed) ? transformed : '';
}

function CodeBlock({ children, ...props }: ComponentProps<'pre'>) {
  const preRef = useRef<HTMLPreElement>(null);
  const codeClass = (children as { props?: { className?: string } } | undefined)?.props?.className ?? '';
  const language = /language-([\w-]+)/.exec(codeClass)?.[1];
  useEffect(() => {
    if (language) requestCodeHighlight();
  }, [language]);
  return (
    <div className="code-block">
      <div className="code-block-bar">
        <span className="code-block-language">{language ?? 'text'}</span>
        <CopyButton text={() => preRef.current?.innerText ?? ''} />
      </div>
      <pre ref={preRef} {...props}>
        {children}
      </pre>
    </div>
  );
}

const components: Components = {
  pre: ({ node: _node, ...props }) => <CodeBlock {...props} />,
  a: ({ node: _node, href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </a>
    ) : (
      <span className="link-removed">{children}</span>
    ),
  // remote images would leak the reader to any server (and the CSP blocks them): show where they point instead
  img: ({ node: _node, src, alt }) => (
    <span className="image-link" title={typeof src === 'string' ? src : undefined}>
      [image: {alt || (typeof src === 'string' ? src : '')}]
    </span>
  ),
};

const plainOptions: Omit<Options, 'children'> = {
  remarkPlugins: [remarkGfm],
  rehypePlugins: [rehypeSanitize],
  components,
  urlTransform: safeUrl,
  skipHtml: true,
};

type RenderOptions = typeof plainOptions;
let highlightedOptions: RenderOptions | undefined;

/** With the highlighter loaded: sanitise first, then highlight, so its classes are added to an already-clean tree. */
function optionsWith(highlight: ReturnType<typeof useCodeHighlight>): RenderOptions {
  if (!highlight) return plainOptions;
  highlightedOptions ??= { ...plainOptions, rehypePlugins: [rehypeSanitize, highlight] };
  return highlightedOptions;
}

/** rows scrolled back into view reuse their rendered Markdown instead of parsing it again */
const RENDERED_CACHE_SIZE = 600;
const renderedCache = new Map<string, ReactElement>();
// what was rendered before the highlighter arrived is rendered again, highlighted
onCodeHighlightLoaded(() => renderedCache.clear());

/** Whether this text was rendered recently (showing it again costs nothing). */
export function isMarkdownCached(text: string): boolean {
  return renderedCache.has(text);
}

function renderCached(text: string, options: RenderOptions): ReactElement {
  const cached = renderedCache.get(text);
  if (cached) {
    renderedCache.delete(text);
    renderedCache.set(text, cached);
    return cached;
  }
  const rendered = renderMarkdown({ ...options, children: text });
  renderedCache.set(text, rendered);
  if (renderedCache.size > RENDERED_CACHE_SIZE) renderedCache.delete(renderedCache.keys().next().value!);
  return rendered;
}

/**
 * Model and web text rendered as Markdown: raw HTML is dropped, unsafe links are removed, code is highlighted
 * (shown plain at once, highlighted when the highlighter's chunk has loaded).
 * Text still streaming in is not cached: each chunk would evict a finished message.
 */
export const Markdown = memo(function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const options = optionsWith(useCodeHighlight());
  return (
    <div className="markdown">
      {streaming ? renderMarkdown({ ...options, children: text }) : renderCached(text, options)}
    </div>
  );
});
