// How the service benchmark's socket receivers (socket-clients.ts) recognise the run's creates in
// socket.io frames without decoding them into strings: they are the load generator, and share the
// service's cores.
const EVENT = Buffer.from('42["message.created",');
const BENCH = Buffer.from('"content":"bench ');
const DIGIT_0 = 0x30;
const QUOTE = 0x22;

/** The create number n of a `message.created` frame whose content is "bench <n>"; -1 for another message, undefined for another frame. */
export function benchNumber(frame: Buffer): number | undefined {
  if (frame.length < EVENT.length || frame.compare(EVENT, 0, EVENT.length, 0, EVENT.length) !== 0) return undefined;
  const at = frame.indexOf(BENCH, EVENT.length);
  if (at < 0) return -1;
  let n = 0;
  let i = at + BENCH.length;
  for (; i < frame.length && frame[i]! >= DIGIT_0 && frame[i]! <= DIGIT_0 + 9; i++) n = n * 10 + frame[i]! - DIGIT_0;
  return i > at + BENCH.length && frame[i] === QUOTE ? n : -1;
}
