// The results of a keystroke render in stages (issue 14): new rows in the first screenful at once,
// new rows further down when the page is next idle; rows already on screen stay in their new order
// rather than leaving and coming back. (Mounting and laying out 50 new rows took 15-25 ms of the
// keystroke's frame.)
import { render, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SearchHit } from '../../renderer/src/search/merge';
import { SearchResults } from '../../renderer/src/screens/SearchResults';

const hit = (key: string): SearchHit => ({ key, kind: 'conversation', conversationId: 1, title: key, snippet: `about ${key}`, at: 0, source: 'local' });
const hits = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => hit(`c:${prefix}${i}`));
const shown = (c: HTMLElement) => [...c.querySelectorAll('li')].map((li) => li.querySelector('.contact')!.textContent);
const keys = (hs: SearchHit[]) => hs.map((h) => h.key);
const noop = () => undefined;

describe('search results in stages', () => {
  it('shows the first screenful of a new answer at once and the rest a moment later', async () => {
    const all = hits('1', 50);
    const { container } = render(<SearchResults query="a" hits={all} service="idle" onOpen={noop} />);
    expect(shown(container)).toEqual(keys(all.slice(0, 16)));
    await waitFor(() => expect(shown(container)).toEqual(keys(all)));
  });

  it('keeps the rows already shown, in the new order; only new rows beyond the first screenful wait', async () => {
    const first = hits('1', 50);
    const { container, rerender } = render(<SearchResults query="a" hits={first} service="idle" onOpen={noop} />);
    await waitFor(() => expect(shown(container)).toHaveLength(50));
    const rowOf = (key: string) => [...container.querySelectorAll('li')].find((li) => li.querySelector('.contact')!.textContent === key);
    const kept = rowOf('c:130');
    // The next keystroke: ten new hits on top, then the earlier ones (the last ten fall off).
    const next = [...hits('2', 10), ...first.slice(0, 40)];
    rerender(<SearchResults query="ab" hits={next} service="idle" onOpen={noop} />);
    expect(shown(container)).toEqual(keys(next));
    expect(rowOf('c:130')).toBe(kept);
    // New hits below the first screenful wait; those above do not.
    const later = [...first.slice(0, 16), ...hits('3', 34)];
    rerender(<SearchResults query="abc" hits={later} service="idle" onOpen={noop} />);
    expect(shown(container)).toEqual(keys(later.slice(0, 16)));
    await waitFor(() => expect(shown(container)).toEqual(keys(later)));
  });
});

describe('search results while the index builds', () => {
  const status = (c: HTMLElement) => c.querySelector('[role="status"]')!.textContent;

  it('say that older messages are still being indexed, so that no results do not read as none', () => {
    const { container, rerender } = render(<SearchResults query="refund" hits={[]} service="local-only" indexing onOpen={noop} />);
    expect(status(container)).toBe('0 results for “refund”. Results saved on this computer. Older messages on this computer are still being indexed.');
    rerender(<SearchResults query="refund" hits={[]} service="idle" indexing onOpen={noop} />);
    expect(status(container)).toBe('0 results for “refund”. Older messages on this computer are still being indexed.');
    // Built: nothing more to say.
    rerender(<SearchResults query="refund" hits={[]} service="local-only" indexing={false} onOpen={noop} />);
    expect(status(container)).toBe('0 results for “refund”. Results saved on this computer.');
  });

  it("say nothing of it once the service's results are merged in: they cover the rest", () => {
    const { container } = render(<SearchResults query="refund" hits={[]} service="merged" indexing onOpen={noop} />);
    expect(status(container)).toBe('0 results for “refund”. Including results from the service.');
  });
});
