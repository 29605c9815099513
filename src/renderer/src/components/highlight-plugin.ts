import rehypeHighlight from 'rehype-highlight';

// the highlighter registers its grammars when set up: once for the app, not once per message rendered
const highlightTree = rehypeHighlight({ detect: false });

/** Highlights code blocks that name their language; loaded in its own chunk by code-highlight.ts. */
export const sharedHighlight = () => highlightTree;
