// Where the search index runs: in a worker of its own when the page can start one (the app, in
// Electron and in web mode), else on the page in short background slices (tests; a page whose
// worker fails to start or to open the cache falls back to this too, so search never just stops).
import type { InboxDb } from '../db/schema';
import type { InputActivity } from '../platform/input-activity';
import type { IndexChange, IndexCore } from './index-core';
import type { FromIndexWorker, ToIndexWorker } from './index-protocol';
import type { LocalHit } from './shown-hit';
import indexWorkerUrl from './index-worker.ts?worker&url';

/** Milliseconds of building on the page before its input and frames get the main thread back. */
const PAGE_SLICE_MS = 8;

export interface IndexRunner {
  /** Settles once what the cache held when it started is indexed. */
  readonly built: Promise<void>;
  /** Documents indexed, as last heard. */
  readonly size: number;
  apply(changes: IndexChange[]): void;
  /** Settles with the hits and their texts; `early` may hear the hits first, before their texts are all read. */
  search(query: string, limit: number, early?: (hits: LocalHit[]) => void): Promise<LocalHit[]>;
  stop(): void;
}

export interface WorkerLike {
  postMessage(message: ToIndexWorker): void;
  onmessage: ((e: MessageEvent<FromIndexWorker>) => void) | null;
  onerror: ((e: Event) => void) | null;
  terminate(): void;
}

function startWorker(): WorkerLike | undefined {
  if (typeof Worker !== 'function') return undefined;
  // The worker's built file by its address (`?worker&url`), not `new URL(…, import.meta.url)`: the
  // page's entry is a classic script, with no import.meta (vite.config.ts).
  return new Worker(indexWorkerUrl, { type: 'module', name: 'search-index' }) as unknown as WorkerLike;
}

/** Input events that say the agent is acting (and a frame for it is coming). */
const AGENT_INPUT = ['keydown', 'pointerdown', 'wheel'] as const;
/** At most one message to the worker per this many milliseconds of input. */
const INPUT_TELL_MS = 100;

/** Calls `tell` when the agent presses, clicks or scrolls (throttled); returns how to stop. */
function onAgentInput(tell: () => void): () => void {
  if (typeof window === 'undefined') return () => undefined;
  let last = -Infinity;
  const heard = () => {
    const now = performance.now();
    if (now - last < INPUT_TELL_MS) return;
    last = now;
    tell();
  };
  for (const type of AGENT_INPUT) window.addEventListener(type, heard, { capture: true, passive: true });
  return () => {
    for (const type of AGENT_INPUT) window.removeEventListener(type, heard, { capture: true });
  };
}

/**
 * The index on the page. Its code (FlexSearch with it) is imported only then: the app's page runs
 * the index in a worker, and a cold open does not run it (the built entry holds it, as a module run
 * only when imported: vite.config.ts).
 * Changes and searches that come before it is loaded wait for it, in order.
 */
function onPage(db: InboxDb, changed: () => void, input: InputActivity | undefined): IndexRunner {
  let core: IndexCore | undefined;
  const waiting: IndexChange[][] = [];
  const loaded = import('./index-core').then((m) => {
    const started = new m.IndexCore(db, PAGE_SLICE_MS, changed, input);
    const built = started.build();
    for (const changes of waiting.splice(0)) started.apply(changes);
    core = started;
    return { core: started, built };
  });
  return {
    built: loaded.then((l) => l.built),
    get size() {
      return core?.size ?? 0;
    },
    apply: (changes) => (core ? core.apply(changes) : void waiting.push(changes)),
    search: (query, limit, early) => loaded.then((l) => l.core.search(query, limit, early)),
    stop: () => undefined,
  };
}

/**
 * `changed`: the index added, changed or removed documents (results for the same query may differ).
 * `input`: the page's input, which the build gives way to (on the page, or told to the worker).
 */
export function runIndex(db: InboxDb, changed: () => void, input: InputActivity | undefined, start: () => WorkerLike | undefined = startWorker): IndexRunner {
  let worker: WorkerLike | undefined;
  try {
    worker = start();
  } catch {
    worker = undefined;
  }
  if (!worker) return onPage(db, changed, input);

  let size = 0;
  let fallback: IndexRunner | undefined;
  let stopped = false;
  let nextId = 1;
  const asked = new Map<number, { query: string; limit: number; early?: (hits: LocalHit[]) => void; answer: (hits: LocalHit[]) => void }>();
  let builtDone!: () => void;
  const built = new Promise<void>((resolve) => (builtDone = resolve));

  const fallBack = () => {
    if (fallback || stopped) return;
    worker?.terminate();
    worker = undefined;
    fallback = onPage(db, changed, input);
    void fallback.built.then(builtDone, builtDone);
    for (const [id, q] of asked) {
      asked.delete(id);
      void fallback.search(q.query, q.limit, q.early).then(q.answer);
    }
  };

  worker.onmessage = (event) => {
    const message = event.data;
    switch (message.type) {
      case 'changed':
        size = message.size;
        changed();
        return;
      case 'built':
        size = message.size;
        builtDone();
        return;
      case 'hits': {
        const q = asked.get(message.id);
        if (!message.final) return void q?.early?.(message.hits);
        asked.delete(message.id);
        q?.answer(message.hits);
        return;
      }
      case 'failed':
        fallBack();
        return;
    }
  };
  worker.onerror = (event) => {
    event.preventDefault();
    fallBack();
  };
  worker.postMessage({ type: 'open', dbName: db.name });
  const stopHearingInput = input ? onAgentInput(() => worker?.postMessage({ type: 'input' })) : () => undefined;

  return {
    built,
    get size() {
      return fallback ? fallback.size : size;
    },
    apply(changes) {
      if (fallback) fallback.apply(changes);
      else worker?.postMessage({ type: 'changes', changes });
    },
    search(query, limit, early) {
      if (fallback) return fallback.search(query, limit, early);
      if (stopped) return Promise.resolve([]);
      return new Promise((answer) => {
        const id = nextId++;
        asked.set(id, { query, limit, answer, ...(early ? { early } : {}) });
        worker?.postMessage({ type: 'search', id, query, limit });
      });
    },
    stop() {
      stopped = true;
      stopHearingInput();
      worker?.terminate();
      worker = undefined;
      fallback?.stop();
      for (const q of asked.values()) q.answer([]);
      asked.clear();
      builtDone();
    },
  };
}
