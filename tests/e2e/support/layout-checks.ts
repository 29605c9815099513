import type { Page } from 'playwright';

/** What a person would call a broken layout, as sentences: empty when the window holds together. */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    type Box = { name: string; rect: DOMRect };
    const box = (element: Element, name: string): Box => ({ name, rect: element.getBoundingClientRect() });
    const visible = ({ rect }: Box) => rect.width > 0 && rect.height > 0;
    const overlaps = (a: DOMRect, b: DOMRect) =>
      a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const inside = (inner: DOMRect, outer: DOMRect) =>
      inner.left >= outer.left - 0.5 &&
      inner.right <= outer.right + 0.5 &&
      inner.top >= outer.top - 0.5 &&
      inner.bottom <= outer.bottom + 0.5;
    const viewport = new DOMRect(0, 0, window.innerWidth, window.innerHeight);

    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth)
      problems.push(`the page scrolls sideways (${root.scrollWidth} > ${root.clientWidth})`);
    for (const selector of [
      '.main-pane',
      '.session-header',
      '.composer',
      '.sidebar',
      '.side-panel',
      '.settings-nav',
      '.settings-body',
    ]) {
      const element = document.querySelector(selector);
      if (element && element.scrollWidth > element.clientWidth + 1)
        problems.push(`${selector} overflows sideways (${element.scrollWidth} > ${element.clientWidth})`);
    }

    const header = document.querySelector('.session-header');
    if (header) {
      const parts = [
        ...[...header.querySelectorAll('.session-name, .status-pill, .activity, .usage')].map((element) =>
          box(element, element.className.split(' ')[0]),
        ),
        ...[...header.querySelectorAll('button')].map((element) =>
          box(element, `button "${element.textContent?.trim()}"`),
        ),
      ].filter(visible);
      const headerRect = header.getBoundingClientRect();
      for (const part of parts) {
        if (!inside(part.rect, headerRect)) problems.push(`${part.name} sticks out of the header`);
      }
      parts.forEach((a, index) => {
        for (const b of parts.slice(index + 1))
          if (overlaps(a.rect, b.rect)) problems.push(`${a.name} overlaps ${b.name}`);
      });
      const title = header.querySelector('.session-name');
      if (!title || title.getBoundingClientRect().width < 80) problems.push('the session title is hidden or squeezed');
    }

    const composer = document.querySelector('.composer');
    const send = document.querySelector('[data-testid="send"], [data-testid="stop"]');
    const inSettings = Boolean(document.querySelector('.settings-pane'));
    if (!inSettings && (!composer || !send)) problems.push('the composer or its Send/Stop button is missing');
    else if (composer && send) {
      const composerRect = composer.getBoundingClientRect();
      if (!inside(composerRect, viewport)) problems.push('the composer is not fully in the window');
      if (!inside(send.getBoundingClientRect(), composerRect)) problems.push('Send/Stop is outside the composer');
      const mainPane = document.querySelector('.main-pane');
      if (mainPane && !inside(composerRect, mainPane.getBoundingClientRect()))
        problems.push('the composer spills out of the main pane');
      const controls = [...composer.querySelectorAll('.composer-bar > *')]
        .map((element) => box(element, element.getAttribute('data-testid') ?? element.className))
        .filter(visible);
      controls.forEach((a, index) => {
        if (!inside(a.rect, composerRect)) problems.push(`composer control ${a.name} sticks out of the composer`);
        for (const b of controls.slice(index + 1))
          if (overlaps(a.rect, b.rect)) problems.push(`composer control ${a.name} overlaps ${b.name}`);
      });
    }

    const panel = document.querySelector('.side-panel');
    const main = document.querySelector('.main-pane');
    if (panel && main && overlaps(panel.getBoundingClientRect(), main.getBoundingClientRect()))
      problems.push('the side panel overlaps the main pane');
    return problems;
  });
}
