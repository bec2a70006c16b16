/**
 * Accessibility checks of the journeys: axe-core's WCAG rules run inside the page
 * on the parts a journey is about.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's browser build, evaluated in the page (the app's CSP forbids inline script tags). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe's rule tags of WCAG 2.0 A and AA (the project's bar); add 'wcag21a', 'wcag21aa' for 2.1. */
export const WCAG2_AA = ['wcag2a', 'wcag2aa'];

/**
 * The violations of axe's rules tagged `tags` (default WCAG 2.0 A and AA) inside the elements
 * matching `include` (CSS selectors), one line each: `rule (impact): target html…`. Empty when there
 * are none. Runs once the page's transitions and animations have ended: a dialog still fading in has
 * its text and buttons at part opacity, which axe's colour-contrast rule reads as too faint (a fast
 * machine reaches the check within the fade).
 */
export async function axeViolations(page: Page, include: string[], tags = WCAG2_AA): Promise<string[]> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ([parts, only]) => {
      type Node = { target: string[]; html: string };
      type Run = (
        context: object,
        options: object,
      ) => Promise<{ violations: { id: string; impact: string; nodes: Node[] }[] }>;
      const { axe } = window as unknown as { axe: { run: Run } };
      const result = await axe.run({ include: parts }, { runOnly: { type: 'tag', values: only } });
      return result.violations.map(
        (v) =>
          `${v.id} (${v.impact}): ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 200)}`).join(', ')}`,
      );
    },
    [include, tags] as const,
  );
}
