/**
 * Scripts run inside the page. They are written as JavaScript text, not TypeScript functions, so that no
 * bundler helper (e.g. esbuild's __name) leaks into the code Playwright serialises and sends to the page.
 */

/** A function whose source is exactly `source`, for Playwright's evaluate (which sends `fn.toString()`). */
function pageFunction<Arg, Result>(source: string): (arg: Arg) => Result {
  return new Function(`return (${source});`)() as (arg: Arg) => Result;
}

/** Installed before any page script: remembers elements that get click-like listeners (no DOM API exposes them). */
export const CLICK_LISTENER_TRACKER = `(() => {
  if (window.__manusClickTargets) return;
  const targets = new WeakSet();
  Object.defineProperty(window, '__manusClickTargets', { value: targets, enumerable: false });
  const CLICKY = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup']);
  const original = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (CLICKY.has(type) && this instanceof Element) targets.add(this);
    return original.call(this, type, listener, options);
  };
})();`;

export interface DropdownOption {
  index: number;
  text: string;
  value: string;
  selected: boolean;
}

export interface IndexedElement {
  index: number;
  tag: string;
  text: string;
  attributes: Record<string, string>;
  /** true when the element sits inside an iframe */
  inFrame: boolean;
  /** true when the element sits inside a shadow root */
  inShadow: boolean;
}

export interface DomIndex {
  elements: IndexedElement[];
  /** interactive elements found beyond `maxElements` */
  omitted: number;
  pixelsAbove: number;
  pixelsBelow: number;
  viewportHeight: number;
  title: string;
}

export interface DomIndexOptions {
  attribute: string;
  expansion: number;
  maxElements: number;
}

/**
 * Numbers the visible interactive elements of the page (through same-origin iframes and open shadow roots),
 * tags each with `attribute` = its number so actions can find it again, and clears stale tags.
 */
export const INDEX_INTERACTIVE_ELEMENTS = pageFunction<
  DomIndexOptions,
  DomIndex
>(`({ attribute, expansion, maxElements }) => {
  const TAGS = new Set(['a', 'button', 'input', 'select', 'textarea', 'summary']);
  const ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'option', 'switch', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem']);
  const SHOWN_ATTRIBUTES = ['type', 'name', 'role', 'placeholder', 'aria-label', 'title', 'alt', 'href'];
  const elements = [];
  let omitted = 0;

  function isInteractive(el, win) {
    const tag = el.localName;
    if (tag === 'html' || tag === 'body') return false;
    if (tag === 'input') return el.type !== 'hidden';
    if (TAGS.has(tag)) return tag !== 'a' || el.hasAttribute('href') || el.hasAttribute('onclick');
    if (tag === 'label' && el.control && !el.contains(el.control)) return true;
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return true;
    const role = el.getAttribute('role');
    if (role && ROLES.has(role)) return true;
    if (el.hasAttribute('onclick')) return true;
    const tabindex = el.getAttribute('tabindex');
    if (tabindex !== null && Number(tabindex) >= 0) return true;
    const clickTargets = win.__manusClickTargets;
    return !!(clickTargets && clickTargets.has(el));
  }

  function isShown(el, win, box) {
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 && rect.height === 0) return false;
    const style = win.getComputedStyle(el);
    if (style.visibility === 'hidden' || style.visibility === 'collapse' || style.display === 'none') return false;
    const top = rect.top + box.top;
    const left = rect.left + box.left;
    if (rect.bottom < -expansion || rect.top > win.innerHeight + expansion) return false;
    const inBox = top + rect.height >= box.clipTop - expansion && top <= box.clipBottom + expansion &&
      left + rect.width >= box.clipLeft && left <= box.clipRight;
    return inBox && !isCovered(el, rect, win);
  }

  // something else (a modal, a cookie banner) sits on the element's centre: a click would land there instead
  function isCovered(el, rect, win) {
    const x = rect.left + rect.width / 2;
    const y = rect.top + rect.height / 2;
    if (x < 0 || y < 0 || x >= win.innerWidth || y >= win.innerHeight) return false;
    const root = el.getRootNode();
    const hit = root.elementFromPoint ? root.elementFromPoint(x, y) : null;
    if (!hit || hit === el || el.contains(hit) || hit.contains(el)) return false;
    // a label in front of its own control passes the click on
    const label = hit.closest && hit.closest('label');
    return !(label && label.control === el);
  }

  function clip(text, limit) {
    const flat = (text || '').replace(/\\s+/g, ' ').trim();
    return flat.length > limit ? flat.slice(0, limit) + '…' : flat;
  }

  function describe(el, inFrame, inShadow) {
    const tag = el.localName;
    const attributes = {};
    for (const name of SHOWN_ATTRIBUTES) {
      const value = el.getAttribute(name);
      if (value !== null && value !== '') attributes[name] = clip(value, 80);
    }
    let text = '';
    if (tag === 'input' || tag === 'textarea') {
      const type = (el.type || '').toLowerCase();
      if (type === 'checkbox' || type === 'radio') attributes.checked = String(el.checked);
      else if (type === 'password') { if (el.value) attributes.value = '••••••'; }
      else if (type !== 'file' && el.value) attributes.value = clip(el.value, 80);
    } else if (tag === 'select') {
      const selected = el.selectedOptions && el.selectedOptions[0];
      if (selected) attributes.selected = clip(selected.textContent, 60);
    } else {
      text = clip(el.innerText || el.textContent, 100);
    }
    if (el.disabled) attributes.disabled = 'true';
    return { tag, text, attributes, inFrame, inShadow };
  }

  function walk(root, win, box, inFrame, inShadow) {
    for (const el of root.querySelectorAll('*')) {
      const wanted = isInteractive(el, win) && isShown(el, win, box);
      if (wanted && elements.length < maxElements) {
        const index = elements.length + 1;
        el.setAttribute(attribute, String(index));
        elements.push({ index, ...describe(el, inFrame, inShadow) });
      } else {
        if (wanted) omitted++;
        if (el.hasAttribute(attribute)) el.removeAttribute(attribute);
      }
      if (el.shadowRoot) walk(el.shadowRoot, win, box, inFrame, true);
      if (el.localName === 'iframe' || el.localName === 'frame') {
        let doc = null;
        try { doc = el.contentDocument; } catch (error) { doc = null; }
        if (!doc || !el.contentWindow) continue;
        const rect = el.getBoundingClientRect();
        const top = box.top + rect.top + el.clientTop;
        const left = box.left + rect.left + el.clientLeft;
        const frameBox = {
          top, left,
          clipTop: Math.max(box.clipTop, top), clipBottom: Math.min(box.clipBottom, top + el.clientHeight),
          clipLeft: Math.max(box.clipLeft, left), clipRight: Math.min(box.clipRight, left + el.clientWidth),
        };
        walk(doc, el.contentWindow, frameBox, true, inShadow);
      }
    }
  }

  walk(document, window, { top: 0, left: 0, clipTop: 0, clipBottom: window.innerHeight, clipLeft: 0,
    clipRight: window.innerWidth }, false, false);
  const scroller = document.scrollingElement || document.documentElement;
  const pixelsAbove = Math.round(scroller.scrollTop);
  const pixelsBelow = Math.max(0, Math.round(scroller.scrollHeight - scroller.clientHeight - scroller.scrollTop));
  return { elements, omitted, pixelsAbove, pixelsBelow, viewportHeight: window.innerHeight, title: document.title };
}`);

/**
 * Scrolls the page by `amount` pixels, or one screen when null, in `direction` (1 down, -1 up); returns the pixels
 * moved. When the document itself does not move (app layouts that scroll an inner panel), the scrollable ancestor
 * of the element at the centre of the view is scrolled instead.
 */
export const SCROLL_BY = pageFunction<
  { amount: number | null; direction: 1 | -1 },
  number
>(`({ amount, direction }) => {
  const delta = direction * (amount === null ? window.innerHeight : amount);
  const scroller = document.scrollingElement || document.documentElement;
  const before = scroller.scrollTop;
  window.scrollBy({ top: delta, behavior: 'instant' });
  if (scroller.scrollTop !== before) return scroller.scrollTop - before;
  let el = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2);
  while (el && el !== document.body && el !== document.documentElement) {
    const style = getComputedStyle(el);
    if (/(auto|scroll|overlay)/.test(style.overflowY) && el.scrollHeight > el.clientHeight) {
      const start = el.scrollTop;
      el.scrollBy({ top: delta, behavior: 'instant' });
      return el.scrollTop - start;
    }
    el = el.parentElement;
  }
  return 0;
}`);

/** The link an element is or sits in (its href and target), if any. */
export const LINK_OF = pageFunction<Element, { href: string; target: string } | null>(`(el) => {
  const link = el.closest('a[href], area[href]');
  return link ? { href: link.getAttribute('href'), target: link.getAttribute('target') || '' } : null;
}`);

/** The options of a <select>, or null for any other element. */
export const SELECT_OPTIONS_OF = pageFunction<
  Element,
  DropdownOption[] | null
>(`(el) => el.localName !== 'select' ? null : Array.from(el.options).map((option, i) => ({
  index: i, text: (option.textContent || '').trim(), value: option.value, selected: option.selected }))`);

/**
 * The page body as lean HTML for Markdown conversion: a copy without scripts, styles, SVG and frames, links made
 * absolute, and only the attributes Markdown uses, so megabytes of markup shrink before the slow conversion.
 */
export const READABLE_HTML = pageFunction<void, string>(`() => {
  const source = document.body || document.documentElement;
  const copy = source.cloneNode(true);
  copy.querySelectorAll('script, style, noscript, template, svg, canvas, iframe, frame, object, embed, link, meta')
    .forEach((el) => el.remove());
  const originals = source.querySelectorAll('a[href], img[src]');
  copy.querySelectorAll('a[href], img[src]').forEach((el, i) => {
    const original = originals[i];
    if (!original) return;
    if (el.localName === 'a') el.setAttribute('href', original.href);
    else el.setAttribute('src', original.src);
  });
  const KEPT = new Set(['href', 'src', 'alt', 'title', 'colspan', 'rowspan']);
  for (const el of copy.querySelectorAll('*')) {
    for (const name of el.getAttributeNames()) if (!KEPT.has(name)) el.removeAttribute(name);
  }
  return copy.outerHTML;
}`);
