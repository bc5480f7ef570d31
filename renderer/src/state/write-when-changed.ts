// zustand's `persist` writes the persisted part of a store on every `set`. The UI store is set on
// every click and key (the selection, a picker, a notice) while only the list's view is persisted,
// so each of them wrote the same text to localStorage again: 2.8 ms of a conversation switch's
// click in a CPU profile (issue 14), synchronous, on the main thread.
import type { StateStorage } from 'zustand/middleware';

/** `storage`, writing a key only when its text differs from what this page last read or wrote there. */
export function writeWhenChanged(storage: Storage): StateStorage {
  const last = new Map<string, string>();
  return {
    getItem: (name) => {
      const value = storage.getItem(name);
      if (value === null) last.delete(name);
      else last.set(name, value);
      return value;
    },
    setItem: (name, value) => {
      if (last.get(name) === value) return;
      storage.setItem(name, value);
      last.set(name, value);
    },
    removeItem: (name) => {
      last.delete(name);
      storage.removeItem(name);
    },
  };
}
