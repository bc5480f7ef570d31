// The list holds still under the agent (issue 11, finding 6): a row the agent is on — the keyboard
// cursor's row, or the open conversation's — keeps its place on screen (its index) when its sort
// position changes (a label added, a reply sent: its last activity moves it to the top).
// It takes its new place when the agent leaves it: the cursor moves off it and it is not open any
// more, or the agent leaves the list (another tab, filter or sort shows a fresh order). Every
// other row is where the view's sort puts it; rows that leave the view go at once.

/**
 * `sorted` (the view's order) with each pinned id put back at the index it had in `previous` (the
 * order on screen), less the rows above it that left the view. By index rather than after its neighbour: the neighbour may be a row the agent
 * just left, now moving to its own new place. Pure.
 */
export function stableOrder<T extends { id: number }>(sorted: readonly T[], previous: readonly number[], pinned: readonly (number | undefined)[]): T[] {
  const keep = [...new Set(pinned)].filter((id): id is number => id !== undefined && previous.includes(id) && sorted.some((r) => r.id === id));
  if (!keep.length) return [...sorted];
  const byId = new Map(sorted.map((r) => [r.id, r]));
  const out = sorted.filter((r) => !keep.includes(r.id));
  // Back into place in screen order, so two pinned rows keep theirs relative to each other.
  for (const id of [...keep].sort((a, b) => previous.indexOf(a) - previous.indexOf(b))) {
    // Its index, less the rows above it that left the view (the list closes up under it).
    const present = new Set(sorted.map((r) => r.id));
    const at = previous.slice(0, previous.indexOf(id)).filter((above) => present.has(above)).length;
    out.splice(Math.min(at, out.length), 0, byId.get(id)!);
  }
  return out;
}
