import type { ToolItem } from '../state/session-view.js';
import { PythonView } from './PythonView.js';
import { BashView } from './BashView.js';
import { FileEditView } from './FileEditView.js';
import { BrowserView } from './BrowserView.js';
import { SearchView } from './SearchView.js';
import { RawView } from './RawView.js';

/** The view made for each kind of tool. */
export function ToolDetails({ item }: { item: ToolItem }) {
  switch (item.toolKind) {
    case 'python':
      return <PythonView item={item} />;
    case 'bash':
      return <BashView item={item} />;
    case 'file':
      return <FileEditView item={item} />;
    case 'browser':
      return <BrowserView item={item} />;
    case 'search':
      return <SearchView item={item} />;
    case 'mcp':
      return <RawView item={item} raw />;
    default:
      return <RawView item={item} />;
  }
}
