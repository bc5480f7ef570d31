// Work that can wait for the page to be idle: requestIdleCallback with a deadline where the
// browser has it, a timer where it does not (tests' DOMs). Returns how to cancel it.

export function whenIdle(run: () => void, opts: { within: number; otherwiseAfter: number }): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout: opts.within });
    return () => cancelIdleCallback(id);
  }
  const timer = setTimeout(run, opts.otherwiseAfter);
  return () => clearTimeout(timer);
}
