// The list's order for the commands: the ids of the rows shown, in order, worked out after the
// frame that shows them (or at once when a command asks first), and never stale.
import { describe, expect, it, vi } from 'vitest';
import { ListOrder } from '../../renderer/src/conversations/list-order';

const rows = (...ids: number[]) => ids.map((id) => ({ id }));

describe('ListOrder', () => {
  it('answers the ids of the rows last shown, asked at once or after the frame', async () => {
    const order = new ListOrder<{ id: number }>();
    expect(order.current).toEqual([]);
    order.show(rows(3, 1, 2));
    expect(order.current).toEqual([3, 1, 2]);
    order.show(rows(1, 2));
    await new Promise((r) => setTimeout(r, 50));
    expect(order.current).toEqual([1, 2]);
  });

  it('maps the rows once per change, and not in the task that showed them', async () => {
    const order = new ListOrder<{ id: number }>();
    const shown = rows(5, 4);
    const map = vi.spyOn(shown, 'map');
    order.show(shown);
    expect(map).not.toHaveBeenCalled();
    await new Promise((r) => setTimeout(r, 50));
    expect(map).toHaveBeenCalledTimes(1);
    order.show(shown);
    expect(order.current).toEqual([5, 4]);
    expect(map).toHaveBeenCalledTimes(1);
  });

  it('finds a row shown by its id, as last shown', () => {
    const order = new ListOrder<{ id: number; labels: string[] }>();
    order.show([{ id: 1, labels: ['a'] }, { id: 2, labels: [] }]);
    expect(order.row(1)?.labels).toEqual(['a']);
    order.show([{ id: 1, labels: ['b'] }]);
    expect(order.row(1)?.labels).toEqual(['b']);
    expect(order.row(2)).toBeUndefined();
  });

  it('looks rows up in one pass over them per change, however many are asked for', () => {
    const order = new ListOrder<{ id: number }>();
    const shown = rows(...Array.from({ length: 1_000 }, (_, i) => i + 1));
    const map = vi.spyOn(shown, 'map');
    const find = vi.spyOn(shown, 'find');
    order.show(shown);
    for (let id = 1; id <= 1_000; id++) expect(order.row(id)?.id).toBe(id);
    expect(find).not.toHaveBeenCalled();
    expect(map).toHaveBeenCalledTimes(1);
    order.show(rows(7));
    expect(order.row(7)?.id).toBe(7);
    expect(order.row(1)).toBeUndefined();
  });
});
