// What main fetched, kept so that scrolling back (or a second bubble showing the same file) does
// not fetch again: least recently used first out, bounded by total bytes and by entries. A fetch
// already running for a key is joined, not repeated. Refusals are kept too (they are small and would
// come out the same), failures are not (the next look may find the service reachable again).
export interface FileCache<V> {
  /** The value for `key`, from the cache, or the fetch already running, or `load` (stored if `keep` says so). */
  get(key: string, load: () => Promise<V>): Promise<V>;
  /** Forget everything (sign-out, a switch of session). */
  clear(): void;
  /** Bytes held now. */
  size(): number;
}

export function createFileCache<V>(opts: { maxBytes: number; maxEntries: number; sizeOf(value: V): number; keep(value: V): boolean }): FileCache<V> {
  const held = new Map<string, { value: V; bytes: number }>();
  const running = new Map<string, Promise<V>>();
  let total = 0;
  let generation = 0;

  const evict = () => {
    for (const [key, entry] of held) {
      if (total <= opts.maxBytes && held.size <= opts.maxEntries) break;
      held.delete(key);
      total -= entry.bytes;
    }
  };

  return {
    get(key, load) {
      const hit = held.get(key);
      if (hit) {
        // Most recently used goes to the end of the map's order.
        held.delete(key);
        held.set(key, hit);
        return Promise.resolve(hit.value);
      }
      const pending = running.get(key);
      if (pending) return pending;
      const startedIn = generation;
      const promise = load()
        .then((value) => {
          const bytes = opts.sizeOf(value);
          // One value bigger than the whole cache is answered, not kept; nor is one loaded before a clear.
          if (opts.keep(value) && bytes <= opts.maxBytes && startedIn === generation) {
            held.set(key, { value, bytes });
            total += bytes;
            evict();
          }
          return value;
        })
        .finally(() => {
          if (running.get(key) === promise) running.delete(key);
        });
      running.set(key, promise);
      return promise;
    },
    clear() {
      generation++;
      held.clear();
      running.clear();
      total = 0;
    },
    size: () => total,
  };
}
