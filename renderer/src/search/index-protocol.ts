// What the page and the search index's worker say to each other (index-runner.ts on the page,
// index-worker.ts in the worker), and the worker's side of it (here, so tests run it too).
import type { InboxDb } from '../db/schema';
import type { InputActivity } from '../platform/input-activity';
import type { IndexChange } from './index-core';
import { IndexCore } from './index-core';
import type { LocalHit } from './shown-hit';

export type ToIndexWorker =
  | { type: 'open'; dbName: string }
  /** The cache's committed changes, in commit order. */
  | { type: 'changes'; changes: IndexChange[] }
  | { type: 'search'; id: number; query: string; limit: number }
  /** The agent pressed a key, clicked or scrolled on the page: the build rests a while. */
  | { type: 'input' };

export type FromIndexWorker =
  | { type: 'changed'; size: number }
  | { type: 'built'; size: number }
  /** `final` false: the hits as known before their texts were all read (the final answer follows). */
  | { type: 'hits'; id: number; hits: LocalHit[]; final: boolean }
  /** The index could not be built there (the cache could not be opened): the page builds it itself. */
  | { type: 'failed'; reason: string };

/**
 * Milliseconds of building between the page's messages in the worker: a search typed while the
 * index builds waits at most about this long.
 */
export const WORKER_SLICE_MS = 12;

/**
 * The page's input as the worker hears of it (the page tells it of keys, clicks and scrolls,
 * index-runner.ts): the build gives way to it as on the page (index-core.ts).
 */
function heardInput(): InputActivity & { heard(): void } {
  let last = -Infinity;
  return {
    heard: () => void (last = performance.now()),
    sinceLast: () => performance.now() - last,
    pending: () => false,
  };
}

/** The worker's side: answers each message from the page through `post`. */
export function serveIndex(post: (message: FromIndexWorker) => void, openDb: (name: string) => InboxDb): (message: ToIndexWorker) => void {
  let core: IndexCore | undefined;
  const input = heardInput();
  // One "changed" a turn however many slices and change batches were applied in it.
  let announced = false;
  const changed = () => {
    if (announced) return;
    announced = true;
    queueMicrotask(() => {
      announced = false;
      post({ type: 'changed', size: core?.size ?? 0 });
    });
  };
  return (message) => {
    switch (message.type) {
      case 'open': {
        if (core) return;
        const db = openDb(message.dbName);
        // The cache is being deleted (sign-out) or upgraded: this reader lets go for good. Dexie would
        // otherwise open it again on the build's next read, and re-create a signed-out cache.
        let letGo = false;
        db.on('versionchange', () => {
          letGo = true;
          db.close({ disableAutoOpen: true });
          return false;
        });
        core = new IndexCore(db, WORKER_SLICE_MS, changed, input);
        core.build().then(
          () => post({ type: 'built', size: core?.size ?? 0 }),
          (e: unknown) => !letGo && post({ type: 'failed', reason: e instanceof Error ? e.name : 'error' }),
        );
        return;
      }
      case 'changes':
        core?.apply(message.changes);
        return;
      case 'search': {
        const { id } = message;
        if (!core) post({ type: 'hits', id, hits: [], final: true });
        else
          void core
            .search(message.query, message.limit, (hits) => post({ type: 'hits', id, hits, final: false }))
            .then((hits) => post({ type: 'hits', id, hits, final: true }));
        return;
      }
      case 'input':
        input.heard();
        return;
    }
  };
}
