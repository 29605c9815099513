import { memo, useRef, type ComponentProps } from 'react';
import ReactMarkdown, { defaultUrlTransform, type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import rehypeSanitize from 'rehype-sanitize';
import rehypeHighlight from 'rehype-highlight';
import { CopyButton } from './CopyButton.js';

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
      🖼 {alt || (typeof src === 'string' ? src : '')}
    </span>
  ),
};

const remarkPlugins = [remarkGfm];
// sanitise first, then highlight: the highlighter's classes are added to an already-clean tree
const rehypePlugins: ComponentProps<typeof ReactMarkdown>['rehypePlugins'] = [
  rehypeSanitize,
  [rehypeHighlight, { detect: false }],
];

/** Model and web text rendered as Markdown: raw HTML stays text, unsafe links are removed, code is highlighted. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={rehypePlugins}
        components={components}
        urlTransform={safeUrl}
        skipHtml
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});
