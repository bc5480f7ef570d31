// A search result's snippet: the text around the first match, not the start of the message, so
// the agent sees why it was found. Pure; words are matched case- and accent-insensitively, the way
// the index matches them (a prefix of a word counts, as the index's prefix search does).

/** Characters of context shown before the match; the rest of the room goes after it. */
const BEFORE = 40;
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Where the earliest of `terms` starts in `text` (at a word start), and how long it is there. */
export function firstMatch(text: string, terms: readonly string[]): { at: number; length: number } | undefined {
  const folded = fold(text);
  // Folding removes combining marks, so positions in the folded text map back through this table.
  const map: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const f = fold(text[i]!);
    for (let k = 0; k < f.length; k++) map.push(i);
  }
  let best: { at: number; length: number } | undefined;
  for (const raw of terms) {
    const term = fold(raw.trim());
    if (!term) continue;
    let from = 0;
    for (;;) {
      const at = folded.indexOf(term, from);
      if (at < 0) break;
      const atWordStart = at === 0 || !/[\p{L}\p{N}]/u.test(folded[at - 1]!);
      if (atWordStart) {
        const start = map[at] ?? 0;
        const end = (map[at + term.length - 1] ?? start) + 1;
        if (!best || start < best.at) best = { at: start, length: end - start };
        break;
      }
      from = at + 1;
    }
  }
  return best;
}

/**
 * Up to `width` characters of `text` (whitespace collapsed) around the first match of `terms`,
 * cut at word boundaries, with "…" where text was left out. The start of the text when nothing matches.
 */
export function snippetAround(text: string, terms: readonly string[], width = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const match = firstMatch(flat, terms);
  if (flat.length <= width || !match) return flat.length <= width ? flat : `${cutEnd(flat, width)}…`;
  let start = Math.max(0, match.at - BEFORE);
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    start = space >= 0 && space < match.at ? space + 1 : start;
  }
  const end = Math.min(flat.length, start + width);
  const body = end < flat.length ? cutEnd(flat.slice(start, end), end - start) : flat.slice(start);
  return `${start > 0 ? '…' : ''}${body}${end < flat.length ? '…' : ''}`;
}

/** Text as one line of at most 200 characters (a conversation's preview, a contact's details). */
export const oneLine = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim().slice(0, 200);

function cutEnd(s: string, width: number): string {
  const cut = s.slice(0, width);
  const space = cut.lastIndexOf(' ');
  return space > width / 2 ? cut.slice(0, space) : cut;
}
