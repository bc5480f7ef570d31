// Triage from the cache (the service is stopped, so every change stays queued): the key that makes
// the change, to the end of the frame that shows it in the list. Resolve (`e`: the row leaves the
// Open list), label (`l`, type, Space, then Enter: the label's chip on the row), assign (`a`, type,
// then Enter: the assignee's chip), snooze (`s`, then Enter on the first preset: the row leaves).
// Each on a fresh row. The reference is one frame of this page, measured idle in the same run.
import type { Page } from '@playwright/test';
import type { Figure } from '../../../scripts/bench/figures';
import { against, median, percentile } from '../../../scripts/bench/figures';
import { arm, frameInterval, measured } from '../page-probes';
import { traced } from '../trace';

const activeRowId = async (page: Page) => Number(await page.locator('#conversation-listbox [role="option"][aria-selected="true"]').getAttribute('data-conversation-id'));
const row = (id: number) => `#conversation-listbox [data-conversation-id="${id}"]`;

async function picker(page: Page, key: string, name: string) {
  await page.keyboard.press(key);
  await page.getByRole('dialog', { name, exact: true }).waitFor();
}

export async function benchTriage(page: Page, samples: number, avoidLabels: readonly string[]): Promise<Figure[]> {
  const list = page.locator('#conversation-listbox');
  await list.focus();
  await page.keyboard.press('j');
  const frame = await frameInterval(page);

  // Labels and agents the rows do not have yet, from the pickers themselves.
  await picker(page, 'l', 'Labels');
  const labels = (await page.getByRole('dialog', { name: 'Labels' }).getByRole('option').evaluateAll((els) => els.map((e) => e.getAttribute('data-option-id') ?? ''))).filter((l) => l && !avoidLabels.includes(l));
  await page.keyboard.press('Escape');
  await picker(page, 'a', 'Assign to');
  const agents = (await page.getByRole('dialog', { name: 'Assign to' }).locator('[role="option"] .command-title').allTextContents()).map((t) => t.trim()).filter((t) => t && t !== 'Unassigned');
  await page.keyboard.press('Escape');
  if (!labels.length || !agents.length) throw new Error('no label or agent to triage with');

  const times: Record<'resolve' | 'label' | 'assign' | 'snooze', number[]> = { resolve: [], label: [], assign: [], snooze: [] };
  const round = async (i: number, into: typeof times) => {
    let id = await activeRowId(page);
    await arm(page, 'keydown', { selector: row(id), present: false });
    await page.keyboard.press('e');
    into.resolve.push(await measured(page));

    id = await activeRowId(page);
    const label = labels[i % labels.length]!;
    await picker(page, 'l', 'Labels');
    await page.keyboard.type(label);
    await page.keyboard.press('Space');
    await arm(page, 'keydown', { selector: `${row(id)} .chip.label`, present: true, text: label });
    await page.keyboard.press('Enter');
    into.label.push(await measured(page));
    await page.keyboard.press('j');

    id = await activeRowId(page);
    const agent = agents[i % agents.length]!;
    await picker(page, 'a', 'Assign to');
    await page.keyboard.type(agent);
    await arm(page, 'keydown', { selector: `${row(id)} .chip.assignee`, present: true, text: agent });
    await page.keyboard.press('Enter');
    into.assign.push(await measured(page));
    await page.keyboard.press('j');

    id = await activeRowId(page);
    await picker(page, 's', 'Snooze');
    await arm(page, 'keydown', { selector: row(id), present: false });
    await page.keyboard.press('Enter');
    into.snooze.push(await measured(page));
  };
  for (let i = 0; i < samples; i++) await round(i, times);
  // One more round, not counted, traced when BENCH_TRACE names a folder.
  if (process.env.BENCH_TRACE) await traced(page, 'triage', () => round(samples, { resolve: [], label: [], assign: [], snooze: [] }));
  const ref = { limit: frame, limitName: 'one frame' };
  const figures: Figure[] = [];
  for (const [kind, xs] of Object.entries(times)) {
    const note = `${xs.length} times; max ${Math.max(...xs).toFixed(1)} ms`;
    figures.push({ ...against(`triage ${kind}: key → change shown, p50`, median(xs), 'ms', ref, '', () => true, note), met: null });
    figures.push(against(`triage ${kind}: key → change shown, p95`, percentile(xs, 95), 'ms', ref, 'p95 < 16.7 ms (one frame)', (v) => v < 16.7, note));
  }
  return figures;
}
