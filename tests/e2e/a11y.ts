// Accessibility scans with axe-core (WCAG 2.1 A and AA rules).
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Violations inside `include` (the whole page by default), of any impact, as readable lines. */
export async function axeViolations(page: Page, opts: { include?: string; impacts?: readonly string[] } = {}) {
  let builder = new AxeBuilder({ page }).withTags(TAGS);
  if (opts.include) builder = builder.include(opts.include);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => !opts.impacts || opts.impacts.includes(v.impact ?? ''))
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** No serious or critical violations on the whole page. */
export async function expectAccessible(page: Page, screen: string) {
  expect(await axeViolations(page, { impacts: ['serious', 'critical'] }), `axe on ${screen}`).toEqual([]);
}
