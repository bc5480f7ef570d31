// A live read of the cache whose first read starts in the event that shows it, and that follows
// changes by reading again only what a write changed.
//
// dexie-react-hooks' useLiveQuery (Dexie's liveQuery) runs its first read from a zero-delay timer,
// and Chromium holds a page's timers back after a click or a key until the next frame: a
// conversation opened by a click asked for its messages only after the first frame, and showed them
// a frame or two later (bench "switch", traced 2026-11-28: the reads began 32 ms after the click).
// Here the first read is issued at once (or was, by the event that opened the view: `first`), and
// an answer already in memory (`inMemory`) is shown by the first render itself. It follows changes
// from 250 ms after (at once on a write to what is shown): it reads it all again, finds the same
// records (`keepSame`), and nothing renders. After that, a write to what is shown is read back by
// itself (`patch`) where it can be: liveQuery ran the whole read again for every change, and a
// conversation of 10,000 cached messages showed the agent's own reply 256 ms after the key, against
// 50 ms in one of 500 (bench "reply", thirty-third stop).
import { Dexie, rangesOverlap } from 'dexie';
import type { ObservabilitySet } from 'dexie';
import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { afterNextFrame } from '../platform/frames';

type Read<T> = { key: string; value: T } | { key: string; error: unknown };

/**
 * How long after the first answer is shown the read starts following (and reads it all again).
 * Tests lengthen it, to tell a start by a write from the start by the clock.
 */
export const liveReadSettings = { followAfterMs: 250 };

export interface LiveReadOptions<T> {
  /** Answers the first read (a read already under way); `read` itself by default. */
  first?: () => Promise<T>;
  /**
   * The first read's answer when it is already in memory (read ahead): the first render shows it,
   * where it would otherwise render nothing and then, a commit later, the answer. `first` still
   * runs; answering the same value, it renders nothing more.
   */
  inMemory?: () => T | undefined;
  /**
   * The parts of the cache a value rests on (Dexie's terms: `idb://<db>/<table>/<index>` → ranges):
   * a write to them before the read follows starts it at once; once it follows, it reads again.
   * Without it, any write does. It must cover all that `read` reads.
   */
  covers?: (value: T) => ObservabilitySet;
  /**
   * `shown` brought up to date with `changes` (the parts of each write to it since it was read),
   * reading only what they changed; undefined to read it all again. Without it, every change does.
   */
  patch?: (shown: T, changes: ObservabilitySet[]) => Promise<T> | undefined;
  /**
   * Given the last value shown when the read closes, if nothing it rests on (`covers`) was written
   * since it was read: a value a later read may start from.
   */
  onClose?: (value: T) => void;
}

/**
 * The value of `read` (undefined until it has answered), kept current as the cache changes.
 * `key` names what is read (a new key reads anew, and nothing of the old key's value is shown).
 * `keepSame(prev, next)` returns `prev`, or parts of it, where `next` holds the same data, so that
 * what did not change keeps its identity for memoised rendering.
 */
export function useLiveRead<T>(key: string, read: () => Promise<T>, keepSame: (prev: T, next: T) => T, options: LiveReadOptions<T> = {}): T | undefined {
  const { first = read, covers, patch, onClose, inMemory } = options;
  const [state, setState] = useState<Read<T> | undefined>(() => fromMemory(key, inMemory));
  // Another key: what memory holds for it, in this very render (a render-phase update).
  let rendered = state;
  if (rendered?.key !== key) {
    rendered = fromMemory(key, inMemory);
    if (rendered) setState(rendered);
  }
  useEffect(() => {
    let closed = false;
    // What this read last showed: a value with the same data is not set again (not even a render).
    // The render this effect belongs to may have shown one from memory.
    let shown: { value: T } | undefined = rendered && rendered.key === key && 'value' in rendered ? { value: rendered.value } : undefined;
    // Whether `shown` is what the cache holds: false from a write to its parts until it is read back.
    let current = false;
    // What `shown` rests on (`covers`); set once the first answer is in.
    let parts: ObservabilitySet | undefined;
    // Once following: the writes to what is shown not read back yet, and whether all is to be read.
    let following = false;
    let written: ObservabilitySet[] = [];
    let readAll = false;
    let reading = false;
    const take = (value: T) => {
      current = !readAll && written.length === 0;
      const kept = shown ? keepSame(shown.value, value) : value;
      const same = shown !== undefined && kept === shown.value;
      // The same as shown from memory: what it rests on is known from now, and nothing renders.
      if (covers && (!same || !parts)) parts = covers(kept);
      if (same) return;
      shown = { value: kept };
      setState({ key, value: kept });
    };
    // One read at a time, each begun after the writes it reads back were told (a read begun after a
    // commit reads it), so the last one shows what the cache holds; writes told while one is on
    // its way are read back after it. What it read may be older than a write told meanwhile: that
    // write is read back next, and nothing it did not touch has changed.
    const readBack = async () => {
      if (reading) return;
      reading = true;
      try {
        while (!closed && (readAll || written.length)) {
          const changes = written;
          written = [];
          const patched = !readAll && shown && patch ? patch(shown.value, changes) : undefined;
          readAll = false;
          const value = await (patched ?? read());
          if (!closed) take(value);
        }
      } catch (error) {
        if (!closed) setState({ key, error });
        closed = true;
      } finally {
        reading = false;
      }
    };
    const follow = () => {
      if (closed || following) return;
      following = true;
      readAll = true;
      void readBack();
    };
    // Until it follows, a write to what the shown value rests on (a message arriving) starts it at
    // once; writes before the first answer are kept to be checked against it. Without `covers`,
    // any write does.
    const early: ObservabilitySet[] = [];
    const touches = (changed: ObservabilitySet) => !covers || overlaps(parts!, changed);
    // After that, such a write makes what is shown not current until it is read back.
    const onWrite = (changed: ObservabilitySet) => {
      if (!parts) return void early.push(changed);
      if (!touches(changed)) return;
      current = false;
      if (!following) return start();
      written.push(changed);
      void readBack();
    };
    Dexie.on.storagemutated.subscribe(onWrite);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelFrame: (() => void) | undefined;
    const stopWaiting = () => {
      cancelFrame?.();
      clearTimeout(timer);
    };
    const start = () => {
      stopWaiting();
      follow();
    };
    // The first answer renders in its own task: queued behind the timers the opening render set
    // (each live read's first run), the render waited 5-15 ms more. Following starts a moment after
    // the frame that shows it, with a read of it all (the first answer may be the newest messages
    // only, or a read ahead from before this view watched the cache). Started at once, liveQuery's
    // 6 ms of callbacks held that frame back; started right after it, a view left at once (j, j, j)
    // still read its 500 messages, and the next view's read waited behind that one (IndexedDB
    // serves one read at a time). Whatever is written meanwhile, that read reads. A failure of the
    // first read shows through that one's.
    first().then(
      (value) => {
        if (closed) return;
        flushSync(() => take(value));
        parts ??= {};
        if (early.some(touches)) {
          current = false;
          return start();
        }
        early.length = 0;
        cancelFrame = afterNextFrame(() => (timer = setTimeout(start, liveReadSettings.followAfterMs)));
      },
      start,
    );
    return () => {
      const wasCurrent = current && !closed;
      closed = true;
      stopWaiting();
      Dexie.on.storagemutated.unsubscribe(onWrite);
      if (shown && wasCurrent) onClose?.(shown.value);
    };
    // `read`, `keepSame` and the options are new every render; `key` says when the read is another.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  if (!rendered || rendered.key !== key) return undefined;
  // As useLiveQuery does: a failed read fails the render, for the nearest error boundary.
  if ('error' in rendered) throw rendered.error;
  return rendered.value;
}

function fromMemory<T>(key: string, inMemory: (() => T | undefined) | undefined): Read<T> | undefined {
  const value = inMemory?.();
  return value === undefined ? undefined : { key, value };
}

/** Whether a write's parts touch any of `parts` (both in Dexie's ObservabilitySet terms). */
export function overlaps(parts: ObservabilitySet, changed: ObservabilitySet): boolean {
  for (const [part, ranges] of Object.entries(parts)) {
    const touched = changed[part];
    if (touched && rangesOverlap(ranges, touched)) return true;
  }
  return false;
}
