// The service benchmark's own WebSocket client (scripts/bench/bench-websocket.ts): its receivers
// count every event, so a frame it misreads or drops is a benchmark that lies.
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { FrameReader, maskedTextFrame, OPCODE_TEXT, openWebSocket } from '../../scripts/bench/bench-websocket';

/** A server's unmasked frame. */
function serverFrame(text: string, opcode = OPCODE_TEXT, fin = true): Buffer {
  const payload = Buffer.from(text);
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0, n]) : n < 65_536 ? Buffer.from([0, 126, n >> 8, n & 0xff]) : Buffer.concat([Buffer.from([0, 127]), Buffer.alloc(8)]);
  if (n >= 65_536) head.writeBigUInt64BE(BigInt(n), 2);
  head[0] = (fin ? 0x80 : 0) | opcode;
  return Buffer.concat([head, payload]);
}

function readAll(chunks: Buffer[]): string[] {
  const got: string[] = [];
  const reader = new FrameReader((opcode, chunk, start, end) => got.push(`${opcode}:${chunk.toString('utf8', start, end)}`));
  for (const c of chunks) reader.push(c);
  return got;
}

describe('FrameReader', () => {
  const texts = ['2', 'x'.repeat(125), 'y'.repeat(126), 'é'.repeat(900), 'z'.repeat(70_000)];
  const stream = Buffer.concat(texts.map((t) => serverFrame(t)));
  const expected = texts.map((t) => `1:${t}`);

  it('reads every frame of a stream whole, however it is cut', () => {
    expect(readAll([stream])).toEqual(expected);
    for (const cut of [1, 2, 3, 5, 9, 127, 130, 1_000, 1_805, 1_806, 1_807, 50_000]) {
      expect(readAll([stream.subarray(0, cut), stream.subarray(cut)])).toEqual(expected);
    }
    // One byte at a time.
    expect(readAll([...stream.subarray(0, 3_000)].map((b) => Buffer.from([b])))).toEqual(expected.slice(0, 4));
  });

  it('refuses what the service never sends instead of skipping it', () => {
    const masked = serverFrame('hi');
    masked[1]! |= 0x80;
    expect(() => readAll([Buffer.concat([masked, Buffer.alloc(4)])])).toThrow(/masked/);
    expect(() => readAll([serverFrame('part', OPCODE_TEXT, false)])).toThrow(/fragmented/);
    expect(() => readAll([serverFrame('rest', 0)])).toThrow(/fragmented/);
  });
});

describe('maskedTextFrame', () => {
  it('masks the payload with the key it carries, at every length form', () => {
    for (const text of ['40{"a":1}', 'q'.repeat(200), 'w'.repeat(70_000)]) {
      const frame = maskedTextFrame(text);
      expect(frame[0]).toBe(0x81);
      expect(frame[1]! & 0x80).toBe(0x80);
      const short = frame[1]! & 0x7f;
      const head = short < 126 ? 2 : short === 126 ? 4 : 10;
      const key = frame.subarray(head, head + 4);
      const body = Buffer.from(frame.subarray(head + 4).map((b, i) => b ^ key[i & 3]!));
      expect(body.toString()).toBe(text);
    }
  });
});

describe('openWebSocket against ws', () => {
  let server: WebSocketServer | undefined;
  afterEach(() => server?.close());

  it('opens, hears what the server sends (in the handshake chunk too) and is heard', async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    const echoed = new Promise<string>((resolve) =>
      server!.on('connection', (ws, req) => {
        ws.send(`hello ${req.url}`);
        ws.send('w'.repeat(70_000));
        ws.on('message', (data) => resolve(String(data)));
      }),
    );
    await new Promise((r) => server!.once('listening', r));
    const heard: string[] = [];
    let answer: () => void = () => undefined;
    const both = new Promise<void>((r) => (answer = r));
    const ws = openWebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/socket.io/?EIO=4`, (opcode, chunk, start, end) => {
      heard.push(chunk.toString('utf8', start, end));
      if (heard.length === 2) answer();
    });
    await ws.opened;
    await both;
    ws.send('é 40{"pubsub_token":"t"}');
    expect(await echoed).toBe('é 40{"pubsub_token":"t"}');
    expect(heard).toEqual(['hello /socket.io/?EIO=4', 'w'.repeat(70_000)]);
    ws.socket.destroy();
  });

  it('refuses a server that does not upgrade', async () => {
    const { createServer } = await import('node:http');
    const plain = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
    const ws = openWebSocket(`ws://127.0.0.1:${(plain.address() as AddressInfo).port}/`, () => undefined);
    await expect(ws.opened).rejects.toThrow(/refused: HTTP\/1\.1 404/);
    plain.close();
  });
});
