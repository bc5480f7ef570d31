// The list holds still under the agent (issue 11, finding 6): a row the agent is on — the keyboard
// cursor's row, or the open conversation's — keeps its place on screen (its index) when its sort
// position changes (a label added, a reply sent: its last activity moves it to the top).
// It takes its new place when the agent leaves it: the cursor moves off it and it is not open any
// more, or the agent leaves the list (another tab, filter or sort shows a fresh order). Every
// other row is where the view's sort puts it; rows that leave the view go at once.

/**
 * `sorted` (the view's order) with each pinned id put back at the index it had in `previous` (the
 * rows in the order on screen), less the rows above it that left the view. By index rather than after its neighbour: the neighbour may be a row the agent
 * just left, now moving to its own new place. Pure. Runs on every triage key over the whole view
 * (10,000 rows), so it makes one pass over each list and returns `sorted` itself when nothing is held.
 */
export function stableOrder<T extends { id: number }>(sorted: readonly T[], previous: readonly { id: number }[], pinned: readonly (number | undefined)[]): readonly T[] {
  const wanted = new Set<number>();
  for (const id of pinned) if (id !== undefined) wanted.add(id);
  if (!wanted.size) return sorted;
  // The pinned rows present in the view, and the view's ids (to tell which rows above left it).
  const held = new Map<number, T>();
  const present = new Set<number>();
  for (const r of sorted) {
    present.add(r.id);
    if (wanted.has(r.id)) held.set(r.id, r);
  }
  // Each held row's index on screen, less the rows above it that left the view, in screen order.
  const places: { id: number; at: number }[] = [];
  let stayed = 0;
  for (const { id } of previous) {
    if (held.has(id)) places.push({ id, at: stayed });
    if (present.has(id)) stayed++;
  }
  if (!places.length) return sorted;
  const out = sorted.filter((r) => !places.some((p) => p.id === r.id));
  // Back into place in screen order, so two pinned rows keep theirs relative to each other.
  for (const { id, at } of places) out.splice(Math.min(at, out.length), 0, held.get(id)!);
  return out;
}
