// Cutting untrusted text where the browser can afford it. Two costs a contact controls, both
// measured in Chromium (`npm run bench`, "hostile"):
//
// - One long run without a space: Chromium's line breaking of it is quadratic in its length for
//   Thai (a dictionary finds the words) and for Arabic letters joined on both sides (shaped again
//   at every try): 60,000 letters held the page for 5-10 s, 149,000 for over a minute, on every
//   render. `longRuns` finds such runs so that render.ts can offer a break every few characters.
// - Sheer length: 150,000 characters of ordinary text take ~80 ms to parse and sanitize and
//   ~100 ms to lay out. `messagePieces` cuts a long message into pieces the screen shows one at a
//   time (the first at once, the rest when the agent asks, one per frame).
//
// Cuts never split a character: not a surrogate pair, not before a combining mark, a joiner or a
// variation selector, not after a joiner.

/** A run of this many characters without white space is no word anyone reads: it gets break points. */
export const LONG_RUN = 200;
/**
 * Characters between the break points given inside a long run. Small enough that the line breaker
 * never looks far (Arabic in one 3,000-letter node: 9-16 ms to lay out; in chunks of 256: 2 ms), large
 * enough that a piece holds few of them: every <wbr> starts a shaping item of its own, and for each
 * item of a script this machine has no font for (Thai, Han, Hangul, Ethiopic on a bare Linux)
 * Chromium looks for a fallback font again, about 0.2 ms each. 3,000 Thai letters with a break every
 * 32 took 12-28 ms to lay out without a Thai font, every 256 3-4 ms (bench README, 2026-12-02).
 */
export const RUN_CHUNK = 256;
/**
 * How much of a message is shown before the agent asks for the rest: about a screenful. At 10,000
 * characters, the frame that opened a conversation whose newest message was one long word laid it
 * out and often ran past 50 ms (bench "hostile": 51-72 ms in 4 runs of 5 of the 6 cases; at 3,000,
 * 17-33 ms in most, A/B 2026-11-28).
 */
export const PIECE = 3_000;

/** Marks, joiners, variation selectors and tag characters belong to the character before them. */
const CONTINUES = /^(?:\p{M}|\u200d|[\ufe00-\ufe0f]|[\u{e0020}-\u{e007f}])/u;

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
/** How far a cut moves on to keep a character whole; a "character" longer than this (a base with thousands of marks) is cut anyway. */
const MAX_CLUSTER = 64;

/** The nearest index at or after `i` where the text may be cut without splitting a character. */
export function safeCut(text: string, i: number): number {
  let at = Math.min(i, text.length);
  const stop = Math.min(text.length, at + MAX_CLUSTER);
  while (at > 0 && at < stop) {
    const joins = text.charCodeAt(at - 1) === 0x200d || CONTINUES.test(String.fromCodePoint(text.codePointAt(at)!));
    if (isLowSurrogate(text.charCodeAt(at)) || joins) at++;
    else return at;
  }
  // Never half a surrogate pair, whatever else.
  return at < text.length && isLowSurrogate(text.charCodeAt(at)) ? at + 1 : at;
}

/** The long runs of `text`: [start, end) of every stretch of at least LONG_RUN non-space characters. */
export function longRuns(text: string): [number, number][] {
  if (text.length < LONG_RUN) return [];
  const runs: [number, number][] = [];
  const re = new RegExp(`\\S{${LONG_RUN},}`, 'gu');
  for (const m of text.matchAll(re)) runs.push([m.index, m.index + m[0].length]);
  return runs;
}

/** A long run cut every RUN_CHUNK characters (never inside a character). */
export function runChunks(run: string): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < run.length; ) {
    const end = safeCut(run, i + RUN_CHUNK);
    chunks.push(run.slice(i, end));
    i = end;
  }
  return chunks;
}

/**
 * A message cut into pieces of about `size` characters, at a paragraph break where there is one
 * in the last quarter of the piece, else a line break, else a space, else anywhere (safely). The
 * pieces joined are the text.
 */
export function messagePieces(text: string, size = PIECE): string[] {
  if (text.length <= size) return [text];
  const pieces: string[] = [];
  let start = 0;
  while (text.length - start > size) {
    const limit = start + size;
    const floor = start + Math.floor(size * 0.75);
    const window = text.slice(floor, limit);
    const at = (needle: string) => {
      const i = window.lastIndexOf(needle);
      return i < 0 ? -1 : floor + i + needle.length;
    };
    let end = at('\n\n');
    if (end < 0) end = at('\n');
    if (end < 0) end = at(' ');
    if (end < 0) end = safeCut(text, limit);
    pieces.push(text.slice(start, end));
    start = end;
  }
  pieces.push(text.slice(start));
  return pieces;
}
