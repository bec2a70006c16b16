/**
 * Accessibility checks of the journeys: axe-core's WCAG 2.0/2.1 A and AA rules run inside the page
 * on the parts a journey is about.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's browser build, evaluated in the page (the app's CSP forbids inline script tags). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The WCAG 2 A/AA violations axe finds inside the elements matching `include` (CSS selectors), one
 * line each: `rule (impact): target html…`. Empty when there are none.
 */
export async function axeViolations(page: Page, include: string[]): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (parts) => {
    type Node = { target: string[]; html: string };
    type Run = (
      context: object,
      options: object,
    ) => Promise<{ violations: { id: string; impact: string; nodes: Node[] }[] }>;
    const { axe } = window as unknown as { axe: { run: Run } };
    const result = await axe.run(
      { include: parts },
      { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } },
    );
    return result.violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 200)}`).join(', ')}`,
    );
  }, include);
}
