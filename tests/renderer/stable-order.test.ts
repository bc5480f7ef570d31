// The list holds still under the agent (conversations/stable-order.ts): the row the cursor is on,
// and the open conversation's, keep their places when their sort position changes; they take the
// new place once the agent leaves them; every other row follows the sort.
import { describe, expect, it } from 'vitest';
import { stableOrder } from '../../renderer/src/conversations/stable-order';

const rows = (...ids: number[]) => ids.map((id) => ({ id }));
const ids = (r: readonly { id: number }[]) => r.map((x) => x.id);

describe('stableOrder', () => {
  const screen = rows(1, 2, 3, 4, 5);
  it('a label on the row under the cursor moves it to the top of the sort: it stays where it is', () => {
    expect(ids(stableOrder(rows(3, 1, 2, 4, 5), screen, [3]))).toEqual([1, 2, 3, 4, 5]);
  });

  it('once the cursor leaves it, it takes its new place; the row the cursor went to stays put', () => {
    // The agent pressed j: cursor on 4, nothing open. 3 goes to the top, 4 keeps its index.
    expect(ids(stableOrder(rows(3, 1, 2, 4, 5), screen, [4]))).toEqual([3, 1, 2, 4, 5]);
    // 4 also moved up in the sort meanwhile: still held at its index while the cursor is on it.
    expect(ids(stableOrder(rows(4, 3, 1, 2, 5), rows(3, 1, 2, 4, 5), [4]))).toEqual([3, 1, 2, 4, 5]);
  });

  it('rows held where the sort puts them anyway: the sort\'s own array, unchanged', () => {
    const sorted = rows(1, 2, 3, 4, 5);
    expect(stableOrder(sorted, screen, [2, 4])).toBe(sorted);
    const moved = rows(3, 1, 2, 4, 5);
    expect(stableOrder(moved, screen, [3])).not.toBe(moved);
  });

  it('the open conversation holds too, and both keep their order relative to each other', () => {
    expect(ids(stableOrder(rows(5, 2, 1, 3, 4), screen, [2, 5]))).toEqual([1, 2, 3, 4, 5]);
    // The cursor on the open conversation: one row, once.
    expect(ids(stableOrder(rows(3, 1, 2, 4, 5), screen, [3, 3]))).toEqual([1, 2, 3, 4, 5]);
  });

  it('rows that leave the view go at once; a new one enters at its sorted place', () => {
    expect(ids(stableOrder(rows(1, 3, 4), screen, [3]))).toEqual([1, 3, 4]);
    expect(ids(stableOrder(rows(9, 3, 1, 2, 4, 5), screen, [3]))).toEqual([9, 1, 3, 2, 4, 5]);
  });

  it('nothing pinned, or a fresh view (nothing on screen yet): the sort as it is', () => {
    expect(ids(stableOrder(rows(3, 1, 2), rows(1, 2, 3), [undefined]))).toEqual([3, 1, 2]);
    expect(ids(stableOrder(rows(3, 1, 2), rows(), [1]))).toEqual([3, 1, 2]);
  });
});
