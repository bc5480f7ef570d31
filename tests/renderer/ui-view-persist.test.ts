// The UI store persists only the list's view: a click or key that changes anything else writes
// nothing to localStorage (each such write was 2.8 ms of a conversation switch's click, issue 14),
// and a change of the view is still written, and read back.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useUi } from '../../renderer/src/state/ui';
import { writeWhenChanged } from '../../renderer/src/state/write-when-changed';

afterEach(() => vi.restoreAllMocks());

describe('the UI store in localStorage', () => {
  it('is written when the view changes, not when the selection or a picker does', () => {
    const writes = vi.spyOn(Storage.prototype, 'setItem');
    const viewWrites = () => writes.mock.calls.filter(([name]) => name === 'inbox.view').length;
    useUi.getState().setView({ status: 'resolved' });
    expect(viewWrites()).toBe(1);
    expect(JSON.parse(localStorage.getItem('inbox.view')!).state.view.status).toBe('resolved');

    useUi.getState().select(41);
    useUi.getState().select(42);
    useUi.getState().openPicker('labels', [42]);
    useUi.getState().notify('Resolved');
    expect(viewWrites()).toBe(1);

    useUi.getState().setView({ status: 'open' });
    expect(viewWrites()).toBe(2);
    expect(JSON.parse(localStorage.getItem('inbox.view')!).state.view.status).toBe('open');
  });

  it('writes a key again once its text differs from what was read or written', () => {
    const store = new Map<string, string>([['k', 'a']]);
    const backing = { getItem: (k: string) => store.get(k) ?? null, setItem: vi.fn((k: string, v: string) => void store.set(k, v)), removeItem: (k: string) => void store.delete(k) } as unknown as Storage;
    const storage = writeWhenChanged(backing);
    expect(storage.getItem('k')).toBe('a');
    storage.setItem('k', 'a');
    expect(backing.setItem).not.toHaveBeenCalled();
    storage.setItem('k', 'b');
    storage.setItem('k', 'b');
    expect(backing.setItem).toHaveBeenCalledTimes(1);
    storage.removeItem('k');
    storage.setItem('k', 'b');
    expect(backing.setItem).toHaveBeenCalledTimes(2);
    expect(store.get('k')).toBe('b');
  });
});
