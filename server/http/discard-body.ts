// The rest of a request body the service refused (too large, or failed before it was read) is
// read and thrown away before the answer goes out. Fastify answers an oversized body at once and
// closes the connection ("the client may send more data"); a client still sending then fails on
// its next write (EPIPE or a reset) and never reads the 400 the spec's table gives. Reading what
// is left (discarding it, never buffering) lets the client finish sending and read the answer.
// Bounded: a body declared larger than MAX_DISCARD_BYTES is answered at once (nothing waits for
// a gigabyte), reading stops after that many bytes, and after IDLE_MS without data.
//
// Answered at once, such a connection must not close while the client's bytes still arrive:
// Fastify asks for `Connection: close`, Node then closes the socket with unread data, which sends a
// reset, and the client's kernel drops the answer it had not read yet (a client saw no answer at
// all, now and then under load; a client still sending got EPIPE). the error handler drops that ask:
// Node's parser reads and drops the rest of the body while the answer is already out, for as long
// as the client keeps sending it (as for any request body), and the connection then serves the next.
import type { IncomingMessage } from 'node:http';

/** More than the largest body the service reads (40 MB uploads), so any sane client finishes. */
const MAX_DISCARD_BYTES = 64 * 1024 * 1024;
const IDLE_MS = 10_000;

/** Whether the answer goes before the rest of the body is read (a body declared too large to wait for); the error handler keeps the connection open for it. */
export function answeredBeforeBody(req: IncomingMessage, maxBytes = MAX_DISCARD_BYTES): boolean {
  const declared = Number(req.headers['content-length']);
  return !(req.complete || req.readableEnded || req.destroyed) && Number.isFinite(declared) && declared > maxBytes;
}

export function discardRestOfBody(req: IncomingMessage, opts: { maxBytes?: number; idleMs?: number } = {}): Promise<void> {
  const maxBytes = opts.maxBytes ?? MAX_DISCARD_BYTES;
  if (req.complete || req.readableEnded || req.destroyed || answeredBeforeBody(req, maxBytes)) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', done);
      req.off('close', done);
      req.off('error', done);
      resolve();
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(done, opts.idleMs ?? IDLE_MS);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) done();
      else arm();
    };
    // A multipart parser that gave up may still be piped; nothing else reads the stream now.
    req.unpipe();
    req.on('data', onData);
    req.on('end', done);
    req.on('close', done);
    req.on('error', done);
    arm();
    req.resume();
  });
}
