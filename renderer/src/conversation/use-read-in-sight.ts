// The conversations in sight in the list, read ahead while the page is idle (read-ahead.ts
// `prepare`), so that a click on any of them opens it from memory.
//
// A read asked by the click itself comes in only after the frame that follows it (Chromium runs
// that frame first), so its messages showed a frame or two later. The row the pointer rests on is
// read ahead (use-read-intent.ts), but a click as the pointer reaches a row gave that no time.
// Here one row is read at a time, each when the page is idle, top to bottom; again whenever other
// rows come into sight, and whenever a read kept goes (a message arriving in it, or pushed out by
// newer ones): that row is read again when the page is next idle.
import { useEffect } from 'react';
import { whenIdle } from '../platform/idle';
import { useSession } from '../platform/session';
import { useUi } from '../state/ui';
import { IN_SIGHT } from './read-ahead';

/** An idle callback waits at most this long: a page never idle still reads its rows, slowly. */
const IDLE_WITHIN_MS = 2_000;
/**
 * How many times a row is read when its read is not kept (a write was heard while it was under way:
 * the app writes after each switch, so this happened to rows read right after one).
 */
const TRIES = 3;

/** `ids`: the conversations of the rows in sight, top to bottom. */
export function useReadInSight(ids: readonly number[]): void {
  const { client } = useSession();
  const readAhead = client.conversations.readAhead;
  // One effect per set of rows, not per render.
  const key = ids.slice(0, IN_SIGHT).join(',');
  useEffect(() => {
    const inSight = key ? key.split(',').map(Number) : [];
    let cancel: (() => void) | undefined;
    let round = 0;
    // Goes down the rows from the top, reading each not held; a new round replaces the last.
    const start = () => {
      cancel?.();
      const mine = ++round;
      const next = (at: number, tried: number) => {
        if (mine !== round) return;
        const id = inSight[at];
        if (id === undefined) return;
        // The open one is held by its view; one already kept needs nothing.
        if (id === useUi.getState().selectedConversationId || readAhead.holds(id) || tried >= TRIES) return next(at + 1, 0);
        cancel = whenIdle(() => void readAhead.prepare(id).then(() => next(at, tried + 1)), { within: IDLE_WITHIN_MS, otherwiseAfter: 20 });
      };
      next(0, 0);
    };
    start();
    const stop = readAhead.onForget(start);
    return () => {
      stop();
      round++;
      cancel?.();
    };
  }, [key, readAhead]);
}
