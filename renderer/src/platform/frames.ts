// Work held back from the frame that first shows something, so that frame lays out and paints
// only what it must: it runs once that frame is done (a timer queued from its animation frame
// callback runs after its paint).

/** Runs `run` once the next frame is done (at once on a timer where there are no frames: tests' DOMs). Returns how to cancel it. */
export function afterNextFrame(run: () => void): () => void {
  if (typeof requestAnimationFrame !== 'function') {
    const timer = setTimeout(run, 0);
    return () => clearTimeout(timer);
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => (timer = setTimeout(run, 0)));
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}
