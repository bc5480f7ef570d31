// The smallest WebSocket client the service benchmark's receivers need (socket-clients.ts): a
// handshake, text frames read in place, masked text frames sent.
//
// The receivers are the load generator, on the service's two cores. With `ws` they spent about
// 1.2 µs of CPU per event received (bench, 200 sockets), most of it `ws`'s per-frame work: a Buffer
// made for each frame, its UTF-8 checked, a 'message' event. Here each TCP chunk is walked once and
// each frame handed on as offsets into it, so a chunk holding the dozen frames of a batch
// (server/live/write-coalescing.ts) costs little more than reading it. Only what the service sends
// is read: unmasked, unfragmented frames (ws, the service's library, never fragments what it
// sends); anything else is an error, never skipped.
import { createHash, randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { connect } from 'node:net';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
export const OPCODE_TEXT = 0x1;
export const OPCODE_CLOSE = 0x8;

/** Called for each whole frame: its opcode and where its payload lies in `chunk`. */
export type OnFrame = (opcode: number, chunk: Buffer, start: number, end: number) => void;

/** Reads frames from a stream's chunks, however the stream splits them. */
export class FrameReader {
  private rest: Buffer | undefined;

  constructor(private readonly onFrame: OnFrame) {}

  push(data: Buffer): void {
    const chunk = this.rest ? Buffer.concat([this.rest, data]) : data;
    let at = 0;
    for (;;) {
      const left = chunk.length - at;
      if (left < 2) break;
      const b0 = chunk[at]!;
      const b1 = chunk[at + 1]!;
      if ((b0 & 0x80) === 0 || (b0 & 0x0f) === 0) throw new Error('a fragmented frame (this reader reads whole frames only)');
      if (b1 & 0x80) throw new Error('a masked frame from the server');
      let length = b1 & 0x7f;
      let head = 2;
      if (length === 126) {
        if (left < 4) break;
        length = chunk.readUInt16BE(at + 2);
        head = 4;
      } else if (length === 127) {
        if (left < 10) break;
        length = Number(chunk.readBigUInt64BE(at + 2));
        head = 10;
      }
      if (left < head + length) break;
      this.onFrame(b0 & 0x0f, chunk, at + head, at + head + length);
      at += head + length;
    }
    // What is left is the start of a frame: kept (a copy: `data` is the stream's) for the next chunk.
    this.rest = at < chunk.length ? Buffer.from(chunk.subarray(at)) : undefined;
  }
}

/** A client's text frame: masked, as RFC 6455 requires of every frame a client sends. */
export function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const length = payload.length;
  const head = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.alloc(head + 4 + length);
  frame[0] = 0x80 | OPCODE_TEXT;
  if (head === 2) frame[1] = 0x80 | length;
  else if (head === 4) {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 0x80 | 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  const mask = randomBytes(4);
  mask.copy(frame, head);
  for (let i = 0; i < length; i++) frame[head + 4 + i] = payload[i]! ^ mask[i & 3]!;
  return frame;
}

export interface BenchWebSocket {
  socket: Socket;
  /** Sends a text frame (frames arrive only after the handshake, so answering one is always in time). */
  send(text: string): void;
  /** Settles with the handshake; frames after it go to `onFrame` from its first byte. */
  opened: Promise<void>;
}

/** Opens a WebSocket to `url` (ws://host:port/path?query). */
export function openWebSocket(url: string, onFrame: OnFrame): BenchWebSocket {
  const target = new URL(url);
  const key = randomBytes(16).toString('base64');
  const accept = createHash('sha1').update(key + GUID).digest('base64');
  const socket = connect(Number(target.port), target.hostname, () => {
    socket.write(
      `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
  });
  const opened = new Promise<void>((resolve, reject) => {
    const reader = new FrameReader(onFrame);
    let response = Buffer.alloc(0);
    const onHandshake = (data: Buffer) => {
      response = Buffer.concat([response, data]);
      const end = response.indexOf('\r\n\r\n');
      if (end < 0) return;
      const lines = response.subarray(0, end).toString('latin1').split('\r\n');
      const accepted = lines.some((l) => /^sec-websocket-accept:/i.test(l) && l.slice(l.indexOf(':') + 1).trim() === accept);
      socket.off('data', onHandshake);
      if (!/^HTTP\/1\.1 101 /.test(lines[0] ?? '') || !accepted) {
        socket.destroy();
        return reject(new Error(`WebSocket handshake refused: ${lines[0] ?? ''}`));
      }
      socket.on('data', (chunk: Buffer) => reader.push(chunk));
      resolve();
      // The first frames may have come in the handshake's own chunk.
      if (end + 4 < response.length) reader.push(response.subarray(end + 4));
    };
    socket.on('data', onHandshake);
    socket.once('error', reject);
  });
  return { socket, send: (text) => socket.write(maskedTextFrame(text)), opened };
}
