import type { Page } from 'playwright';
import {
  INDEX_INTERACTIVE_ELEMENTS,
  type DomIndex,
  type DomIndexOptions,
  type IndexedElement,
} from './dom-index-script.js';
import { wrapUntrusted } from './untrusted-content.js';

export interface TabInfo {
  id: number;
  url: string;
  title: string;
}

export interface PageState extends DomIndex {
  url: string;
  title: string;
  activeTabId: number;
  tabs: TabInfo[];
}

/** Numbers the page's interactive elements (tagging them for later actions) and measures the scroll position. */
export async function indexPage(page: Page, options: DomIndexOptions): Promise<DomIndex> {
  return page.evaluate(INDEX_INTERACTIVE_ELEMENTS, options);
}

/** elements written without a closing tag */
const VOID_TAGS = new Set(['input', 'img', 'area']);

function formatElement(element: IndexedElement): string {
  const attributes = Object.entries(element.attributes)
    .map(([name, value]) => `${name}="${value.replace(/"/g, "'")}"`)
    .join(' ');
  const where = [element.inFrame ? 'in iframe' : '', element.inShadow ? 'in shadow root' : ''].filter(Boolean);
  const suffix = where.length ? ` (${where.join(', ')})` : '';
  const open = `<${element.tag}${attributes ? ` ${attributes}` : ''}`;
  const body = VOID_TAGS.has(element.tag) ? `${open} />` : `${open}>${element.text}</${element.tag}>`;
  return `[${element.index}]${body}${suffix}`;
}

/** The page state as the model reads it; everything the page authored is fenced as untrusted. */
export function formatPageState(state: PageState): string {
  const tabs = state.tabs
    .map(
      (tab) => `  ${tab.id === state.activeTabId ? '*' : ' '} tab ${tab.id}: ${tab.title || '(untitled)'} — ${tab.url}`,
    )
    .join('\n');
  const elementLines = state.elements.map(formatElement);
  if (state.omitted > 0) elementLines.push(`… ${state.omitted} more interactive elements not listed`);
  const above = state.pixelsAbove > 0 ? `${state.pixelsAbove} pixels above (scroll up to see)` : 'top of the page';
  const below = state.pixelsBelow > 0 ? `${state.pixelsBelow} pixels below (scroll down to see)` : 'end of the page';
  const pageText = [
    `Title: ${state.title || '(untitled)'}`,
    `Tabs (* = active):\n${tabs}`,
    `Interactive elements in view (use the number as "index"):`,
    elementLines.length ? elementLines.join('\n') : '(none)',
  ].join('\n');
  return [
    `Current URL: ${state.url} (tab ${state.activeTabId})`,
    `Scroll: ${above}; ${below}`,
    wrapUntrusted(pageText, state.url),
  ].join('\n');
}
