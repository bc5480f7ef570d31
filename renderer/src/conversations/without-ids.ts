// The rows less those whose id `drop` holds, in their order, as one copy of the array compacted in
// place. `filter`, or pushing row by row, grows its answer as it goes: several times the garbage of
// one copy, and this runs over a 10,000-row view on every triage key (bench/README.md, "The
// garbage a triage key makes").
export function withoutIds<T extends { id: number }>(rows: readonly T[], drop: { has(id: number): boolean }): T[] {
  const out = rows.slice();
  let w = 0;
  for (const r of rows) if (!drop.has(r.id)) out[w++] = r;
  out.length = w;
  return out;
}
