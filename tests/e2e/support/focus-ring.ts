import type { Page } from 'playwright';

/** how many Tab presses a walk takes at most: more than the controls of any one screen */
const MAX_TAB_STOPS = 80;

/**
 * Walks the page with Tab and names each control whose look does not change when it takes the focus: no outline,
 * ring, border or background of its own (or of the box drawn around it, for the composer and the attach button).
 */
export async function controlsWithoutFocusRing(page: Page): Promise<string[]> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const missing: string[] = [];
  const seen = new Set<string>();
  for (let stop = 0; stop < MAX_TAB_STOPS; stop += 1) {
    await page.keyboard.press('Tab');
    const result = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return undefined;
      // the message box rings the whole composer; the invisible file input, its paperclip
      const holder =
        ((element.matches('.composer-input')
          ? element.closest('.composer')
          : element.closest('.attach-button')) as HTMLElement | null) ?? element;
      const look = () =>
        [element, holder]
          .map((target) => {
            const style = getComputedStyle(target);
            return [style.outlineStyle, style.outlineWidth, style.boxShadow, style.borderColor, style.backgroundColor];
          })
          .join('|');
      const focused = look();
      element.blur();
      const unfocused = look();
      element.focus();
      const name =
        element.dataset.testid ??
        element.getAttribute('aria-label') ??
        (element.textContent?.trim().slice(0, 30) || element.tagName.toLowerCase());
      const where = `${name} (${element.tagName.toLowerCase()}${element.className ? `.${element.className.split(' ')[0]}` : ''})`;
      return { where, visible: focused !== unfocused };
    });
    if (!result) continue;
    if (seen.has(result.where)) break;
    seen.add(result.where);
    if (!result.visible) missing.push(result.where);
  }
  return missing;
}
