// Local search over the cache (200,000 messages): each keystroke typed into the search field, to the
// end of the frame that shows the results for what is typed so far (the results' status line names
// the query). First the index must hold everything: a word only the oldest message holds (the index
// builds newest first) is searched until it is found. When the index came to hold everything (its
// own mark) is shown, and how long the newest message took, searched at once after the app opened.
import type { Page } from '@playwright/test';
import type { Figure } from '../../../scripts/bench/figures';
import { SEARCH_INDEX_BUILT } from '../../../renderer/src/search/built-mark';
import { absolute, percentile } from '../../../scripts/bench/figures';
import { arm, measured } from '../page-probes';
import { traced } from '../trace';

export const SEARCH_QUERIES = ['refund', 'invoice export', 'password', 'tracking number', 'subscription upgrade', 'chrome crash', '#4821', 'webhook error'];

const searchField = (page: Page) => page.getByRole('searchbox', { name: /Search conversations/ });

/**
 * Milliseconds from `openedAt` until a search for `marker` (a word one message holds) shows a result,
 * typed once: the results follow the index as it grows. The field is emptied after.
 */
export async function foundAfter(page: Page, marker: string, openedAt: number): Promise<number> {
  const field = searchField(page);
  await field.fill(marker);
  await page.locator('.search-results li').first().waitFor({ timeout: 600_000 });
  const ms = Date.now() - openedAt;
  await field.fill('');
  return ms;
}

/** When the app's index came to hold the whole cache: its mark, in ms from the page's navigation; undefined without one. */
const indexBuiltAt = (page: Page): Promise<number | undefined> => page.evaluate((name) => performance.getEntriesByName(name)[0]?.startTime, SEARCH_INDEX_BUILT);

export async function benchSearch(page: Page, oldestMarker: string, openedAt: number, newestFound: number, queries: readonly string[]): Promise<Figure[]> {
  const field = searchField(page);
  // The index's own mark says when its build ended. A search for the oldest message says only that
  // it is in by now: where the build had ended before this scenario, that read this scenario's start,
  // minutes after the build (bench/README.md, forty-second stop). Searched still, as the check that
  // the oldest is found, and as the figure where the page made no mark.
  const foundBy = await foundAfter(page, oldestMarker, openedAt);
  const builtAt = await indexBuiltAt(page);
  const indexedAfter = builtAt ?? foundBy;
  const indexedHow = `${builtAt === undefined ? 'no mark: the oldest message found by a search, ms from the app opened' : `the index's mark (${SEARCH_INDEX_BUILT}) as its build ended, ms from the page's navigation`}; a search found the oldest message ${(foundBy / 1000).toFixed(0)} s after the app opened, once this scenario began`;

  const times: number[] = [];
  const typeAll = async (into: number[]) => {
  for (const q of queries) {
    await field.fill('');
    await field.focus();
    for (let i = 1; i <= q.length; i++) {
      // A space changes nothing shown (the query is trimmed): typed, not measured.
      if (q[i - 1] === ' ') {
        await page.keyboard.type(' ');
        continue;
      }
      await arm(page, 'keydown', { selector: '.search-results .list-status', present: true, text: `for “${q.slice(0, i).trim()}”` });
      await page.keyboard.type(q[i - 1]!);
      into.push(await measured(page));
      if (process.env.BENCH_VERBOSE) console.error(`search ${JSON.stringify(q.slice(0, i))} ${into[into.length - 1]!.toFixed(1)}`);
    }
  }
  };
  await typeAll(times);
  // One more round, not counted, traced when BENCH_TRACE names a folder.
  if (process.env.BENCH_TRACE) await traced(page, 'search', () => typeAll([]));
  await field.fill('');
  const note = `${times.length} keystrokes over ${queries.length} queries; slowest ${Math.max(...times).toFixed(1)} ms`;
  return [
    absolute('search: keystroke → results shown, p50', percentile(times, 50), 'ms', '', undefined, note),
    absolute('search: keystroke → results shown, p95', percentile(times, 95), 'ms', 'p95 < 50 ms', (v) => v < 50, note),
    absolute('search: app opened → the newest message found', newestFound, 'ms', '', undefined, 'searched at once after the app opened, before the other scenarios; the index builds newest first (search/index-core.ts)'),
    absolute('search: app opened → index holds every message', indexedAfter, 'ms', '', undefined, `${indexedHow}; built in its worker (search/index-runner.ts), started in idle time after the first screen, resting 250 ms after each key, click or scroll of the scenarios before this one`),
  ];
}
