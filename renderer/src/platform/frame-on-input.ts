// The frame that will show what a key or click does, asked for as the event arrives.
//
// Chromium starts a frame at the display's next tick after one is asked for. Until now the first
// ask came from the work the event set off: React's commit touching the DOM, 5-6 ms into a triage
// key's task. When a tick fell inside those milliseconds, the change waited for the tick after,
// most of a frame more (traced in the triage benchmark: the key's task done at 11 ms, the frame
// begun at 21; bench/README.md). Asked for at once, a tick inside the task is no longer missed: the
// frame starts when the task is done, or at the next tick if none fell inside it. The callback does
// nothing: a key that changes nothing costs one frame with nothing new to paint.

/** Events whose handling usually changes the screen (a click on a row, a triage key, Enter in a picker). */
const ACTING = ['keydown', 'click'] as const;

const nothing = () => undefined;

/** Listens (capturing, so before any handler of the page) on `target`; returns how to stop. */
export function askFrameOnInput(target: Pick<Window, 'addEventListener' | 'removeEventListener' | 'requestAnimationFrame'>): () => void {
  const ask = () => void target.requestAnimationFrame(nothing);
  for (const type of ACTING) target.addEventListener(type, ask, { capture: true, passive: true });
  return () => {
    for (const type of ACTING) target.removeEventListener(type, ask, { capture: true });
  };
}
