import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** the rules of WCAG 2.0 and 2.1, levels A and AA */
const WCAG_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const THEMES = ['light', 'dark'] as const;

/**
 * The serious and critical WCAG 2.1 AA findings of axe-core on the page as it is now, one line each (rule, what it
 * says, where). The page must be opened with `bypassCSP` so the script can be injected.
 */
export async function axeFindings(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .flatMap((violation) =>
        violation.nodes.map(
          (node) => `${violation.id}: ${violation.help} at ${node.target.join(' ')} (${node.failureSummary ?? ''})`,
        ),
      );
  }, WCAG_AA_TAGS);
}

/** axeFindings in the light and the dark theme, switched the way public/theme.js applies a stored choice. */
export async function axeFindingsInBothThemes(page: Page, view: string): Promise<string[]> {
  const findings: string[] = [];
  for (const theme of THEMES) {
    await page.evaluate(async (chosen) => {
      document.documentElement.dataset.theme = chosen;
      // colours fade (button transitions): axe reads them once they have settled, not half-way
      await new Promise(requestAnimationFrame);
      const fading = document.getAnimations().filter((animation) => animation instanceof CSSTransition);
      await Promise.all(fading.map((animation) => animation.finished.catch(() => undefined)));
    }, theme);
    findings.push(...(await axeFindings(page)).map((finding) => `[${view}, ${theme}] ${finding}`));
  }
  return findings;
}
