// The list holds still under the agent (issue 11, finding 6): a row the agent is on — the keyboard
// cursor's row, or the open conversation's — keeps its place on screen (its index) when its sort
// position changes (a label added, a reply sent: its last activity moves it to the top).
// It takes its new place when the agent leaves it: the cursor moves off it and it is not open any
// more, or the agent leaves the list (another tab, filter or sort shows a fresh order). Every
// other row is where the view's sort puts it; rows that leave the view go at once.
import { withoutIds } from './without-ids';

/**
 * `sorted` (the view's order) with each pinned id put back at the index it had in `previous` (the
 * rows in the order on screen), less the rows above it that left the view. By index rather than after its neighbour: the neighbour may be a row the agent
 * just left, now moving to its own new place. Pure. Runs on every triage key over the whole view
 * (10,000 rows), so it makes one pass over the view, reads the rows on screen only down to the last
 * pinned one, builds no set of the whole view's ids (a third of the time it took: 6.3 → 2.0 ms for
 * 10,000 rows in a tsx loop on this machine, loaded), and returns `sorted` itself, copying nothing,
 * when nothing is held out of its sorted place.
 */
export function stableOrder<T extends { id: number }>(sorted: readonly T[], previous: readonly { id: number }[], pinned: readonly (number | undefined)[]): readonly T[] {
  const wanted = new Set<number>();
  for (const id of pinned) if (id !== undefined) wanted.add(id);
  if (!wanted.size) return sorted;
  // Only the rows on screen down to the last pinned one matter (the agent's rows are seldom far
  // down): their ids, to tell which of them left the view. No set of the whole view's ids.
  let last = -1;
  for (let i = 0; i < previous.length; i++) if (wanted.has(previous[i]!.id)) last = i;
  if (last < 0) return sorted;
  const above = new Set<number>();
  for (let i = 0; i <= last; i++) above.add(previous[i]!.id);
  // One pass over the view, allocating nothing per row: the pinned rows in it (out of their sorted
  // places) and where the sort put them, and which of the rows above them on screen are still in it.
  const held = new Map<number, { row: T; sortedAt: number }>();
  const present = new Set<number>();
  for (let i = 0; i < sorted.length; i++) {
    const r = sorted[i]!;
    if (!above.has(r.id)) continue;
    present.add(r.id);
    if (wanted.has(r.id)) held.set(r.id, { row: r, sortedAt: i });
  }
  if (!held.size) return sorted;
  // Each held row's index on screen, less the rows above it that left the view, in screen order;
  // put back there in that order, so two pinned rows keep theirs relative to each other. (Each
  // later one goes after the earlier ones, so these are their indices in the answer.)
  const places: { row: T; at: number }[] = [];
  let stayed = 0;
  let length = sorted.length - held.size;
  let inPlace = true;
  for (let i = 0; i <= last; i++) {
    const id = previous[i]!.id;
    const h = held.get(id);
    if (h) {
      const at = Math.min(stayed, length++);
      places.push({ row: h.row, at });
      inPlace &&= at === h.sortedAt;
    }
    if (present.has(id)) stayed++;
  }
  // Every held row where the sort puts it anyway: the view's own array, so what follows the order
  // (the list's memos, the next call's shortcut in use-list.ts) sees no change, and nothing is copied.
  if (inPlace) return sorted;
  // One copy of the view less the held rows (built row by row, on every triage key, it was 18.7 MB
  // of garbage in fifteen rounds), and the held rows put back at their indices.
  const out = withoutIds(sorted, held);
  for (const { row, at } of places) out.splice(at, 0, row);
  return out;
}
