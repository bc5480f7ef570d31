// How the service benchmark's socket receivers (socket-clients.ts) recognise the run's creates in
// socket.io frames without decoding them into strings: they are the load generator, and share the
// service's cores.
const EVENT = Buffer.from('42["message.created",');
const BENCH = Buffer.from('"content":"bench ');
/** The payload's start as presenters/message.ts writes it: `{"id":<n>,"content":"…`. */
const ID = Buffer.from('{"id":');
const CONTENT = Buffer.from(',"content":"');
const BENCH_TEXT = Buffer.from('bench ');
const DIGIT_0 = 0x30;
const QUOTE = 0x22;

const isDigit = (b: number | undefined) => b !== undefined && b >= DIGIT_0 && b <= DIGIT_0 + 9;

/** Whether `frame` holds `bytes` at `at`, before `end`. */
function holdsAt(frame: Buffer, bytes: Buffer, at: number, end: number): boolean {
  if (at + bytes.length > end) return false;
  for (let j = 0; j < bytes.length; j++) if (frame[at + j] !== bytes[j]) return false;
  return true;
}

/**
 * Where the content's text begins in frame[start, end): read in place when the payload begins as
 * the presenter writes it (content is its second field), else found by search. Buffer#indexOf
 * builds its search tables in C++ on every call: a fifth of the receivers' CPU in a profile of the
 * bench's run with 200 sockets, for the half of the events (the warm-up's) it searched to the end.
 */
function contentAt(frame: Buffer, start: number, end: number): number {
  let i = start + EVENT.length;
  if (holdsAt(frame, ID, i, end)) {
    i += ID.length;
    while (i < end && isDigit(frame[i])) i++;
    if (holdsAt(frame, CONTENT, i, end)) return i + CONTENT.length;
  }
  const at = frame.subarray(start, end).indexOf(BENCH, EVENT.length);
  return at < 0 ? -1 : start + at + BENCH.length - BENCH_TEXT.length;
}

/**
 * The create number n of a `message.created` frame whose content is "bench <n>"; -1 for another
 * message, undefined for another frame. The frame is frame[start, end) (a payload read in place
 * from a TCP chunk), or the whole Buffer.
 */
export function benchNumber(frame: Buffer, start = 0, end = frame.length): number | undefined {
  if (!holdsAt(frame, EVENT, start, end)) return undefined;
  const text = contentAt(frame, start, end);
  if (text < 0 || !holdsAt(frame, BENCH_TEXT, text, end)) return -1;
  let n = 0;
  let i = text + BENCH_TEXT.length;
  for (; i < end && isDigit(frame[i]); i++) n = n * 10 + frame[i]! - DIGIT_0;
  return i > text + BENCH_TEXT.length && i < end && frame[i] === QUOTE ? n : -1;
}
