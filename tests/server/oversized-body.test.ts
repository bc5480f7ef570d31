// An oversized body is answered with the spec's 400 shape, and the client can finish sending and
// read it (outside security review, finding 4: a 2 MB body got a broken connection, EPIPE,
// instead of `400 {"error":"Request body is too large"}`). A client that writes its whole body
// before reading the answer (Python's http.client, most SDKs) fails on a write if the service
// closes the connection while the body is still arriving. Real TCP clients here, not inject.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';

let svc: DemoService;
let port: number;
beforeAll(async () => {
  svc = await demoService();
  await svc.app.listen({ port: 0, host: '127.0.0.1' });
  port = (svc.app.server.address() as net.AddressInfo).port;
});
afterAll(() => svc.close());

const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Exchange {
  /** The error a write or the connection failed with (EPIPE, ECONNRESET), if any. */
  error?: string;
  /** The whole body went out (the service did not close the connection while it was arriving). */
  sentAll: boolean;
  status?: number;
  body: string;
  /** Bytes of the body written before the answer's first byte arrived. */
  writtenBeforeAnswer: number;
}

/**
 * Writes the head, then the body in pieces, each after the previous one left and a millisecond
 * apart (as a client on a real network would), and only then finishes its side; reads the answer
 * meanwhile. Like most HTTP clients it keeps sending after the service's FIN (half-open), which
 * is when a closed connection shows as EPIPE/ECONNRESET.
 */
function exchange(head: string, body: { size: number; piece?: number; chunked?: boolean; prefix?: Buffer; suffix?: Buffer; stopAfter?: number }): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const received: Buffer[] = [];
    let error: string | undefined;
    let written = 0;
    let writtenBeforeAnswer = -1;
    let writerDone = false;
    let sentAll = false;
    let settled = false;
    const parse = () => {
      const text = Buffer.concat(received).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return undefined;
      const headers = text.slice(0, split);
      const length = Number(/content-length: *(\d+)/i.exec(headers)?.[1] ?? NaN);
      const rest = text.slice(split + 4);
      if (!(rest.length >= length)) return undefined;
      return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1]), body: rest.slice(0, length) };
    };
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const answer = parse();
      resolve({ ...(error ? { error } : {}), sentAll, ...(answer ? { status: answer.status } : {}), body: answer?.body ?? '', writtenBeforeAnswer });
    };
    const maybeFinish = () => {
      if (writerDone && parse()) finish();
    };
    socket.on('data', (d) => {
      if (writtenBeforeAnswer < 0) writtenBeforeAnswer = written;
      received.push(d);
      maybeFinish();
    });
    socket.on('error', (e) => {
      error ??= (e as NodeJS.ErrnoException).code ?? e.message;
      finish();
    });
    socket.on('close', finish);
    const timer = setTimeout(finish, 20_000);
    const write = (chunk: Buffer | string) =>
      new Promise<boolean>((done) => {
        if (socket.destroyed || error) return done(false);
        socket.write(chunk, (err) => {
          if (err) error ??= (err as NodeJS.ErrnoException).code ?? err.message;
          done(!err);
        });
      });
    void (async () => {
      const run = async () => {
        if (!(await write(head))) return;
        const size = body.piece ?? 64 * 1024;
        const piece = Buffer.alloc(size, 'a');
        const parts: Buffer[] = [];
        if (body.prefix) parts.push(body.prefix);
        for (let left = body.size; left > 0; left -= size) parts.push(left >= size ? piece : piece.subarray(0, left));
        if (body.suffix) parts.push(body.suffix);
        for (const part of parts) {
          if (body.stopAfter !== undefined && written >= body.stopAfter) return;
          const data = body.chunked ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part;
          if (!(await write(data))) return;
          written += part.length;
          await sleep(1);
        }
        if (body.chunked && !(await write('0\r\n\r\n'))) return;
        sentAll = true;
      };
      await run();
      writerDone = true;
      maybeFinish();
    })();
  });
}

const jsonHead = (path: string, length: number | 'chunked', extra = '') =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${extra}${length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`}\r\n\r\n`;

const TOO_LARGE = { error: 'Request body is too large' };

describe('a body over the limit', () => {
  it('2 MB of JSON with Content-Length: the 400 arrives and the client finishes sending (no EPIPE)', async () => {
    const size = 2 * MB;
    const r = await exchange(jsonHead(`/api/v1/accounts/${svc.creds.accountId}/conversations`, size, `api_access_token: ${svc.creds.adminToken}\r\n`), { size });
    expect({ error: r.error, sentAll: r.sentAll, status: r.status, body: r.body && JSON.parse(r.body) }).toEqual({ error: undefined, sentAll: true, status: 400, body: TOO_LARGE });
  });

  it('2 MB of chunked JSON, on the Client API, and signed out: the same', async () => {
    const cases = [
      exchange(jsonHead(`/api/v1/accounts/${svc.creds.accountId}/conversations`, 'chunked', `api_access_token: ${svc.creds.adminToken}\r\n`), { size: 2 * MB, chunked: true }),
      exchange(jsonHead(`/public/api/v1/inboxes/${svc.creds.apiInboxIdentifier}/contacts`, 2 * MB), { size: 2 * MB }),
      exchange(jsonHead('/api/v1/profile', 2 * MB), { size: 2 * MB }),
    ];
    for (const r of await Promise.all(cases)) {
      expect({ error: r.error, sentAll: r.sentAll, status: r.status, body: r.body && JSON.parse(r.body) }).toEqual({ error: undefined, sentAll: true, status: 400, body: TOO_LARGE });
    }
  });

  it('an attachment over 40 MB: 400 "Attachment is too large", after the whole upload was read', { timeout: 30_000 }, async () => {
    const boundary = 'x-boundary-7f3a';
    const prefix = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const suffix = Buffer.from(`\r\n--${boundary}--\r\n`);
    const size = 41 * MB;
    const head = `POST /api/v1/accounts/${svc.creds.accountId}/upload HTTP/1.1\r\nHost: 127.0.0.1\r\napi_access_token: ${svc.creds.adminToken}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${prefix.length + size + suffix.length}\r\n\r\n`;
    // Pieces of 64 KB and of 1 MB: with the larger ones the last piece busboy read ended exactly at
    // the limit, and the file used to be stored cut to 40 MB with a 200.
    for (const piece of [64 * 1024, MB]) {
      const r = await exchange(head, { size, piece, prefix, suffix });
      expect({ error: r.error, sentAll: r.sentAll, status: r.status, body: r.body && JSON.parse(r.body) }).toEqual({ error: undefined, sentAll: true, status: 400, body: { error: 'Attachment is too large' } });
    }
    expect(svc.db.prepare('SELECT COUNT(*) AS n FROM uploads WHERE byte_size >= ?').get(MB)).toEqual({ n: 0 });
  });

  it('an avatar over 5 MB: 422 naming the avatar, after the whole form was read', async () => {
    const boundary = 'x-boundary-av';
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const prefix = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n`), png]);
    const suffix = Buffer.from(`\r\n--${boundary}--\r\n`);
    const size = 6 * MB;
    const contactId = (svc.db.prepare('SELECT id FROM contacts WHERE account_id = ? LIMIT 1').get(svc.creds.accountId) as { id: number }).id;
    const head = `PATCH /api/v1/accounts/${svc.creds.accountId}/contacts/${contactId} HTTP/1.1\r\nHost: 127.0.0.1\r\napi_access_token: ${svc.creds.adminToken}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${prefix.length + size + suffix.length}\r\n\r\n`;
    for (const piece of [64 * 1024, MB]) {
      const r = await exchange(head, { size, piece, prefix, suffix });
      expect({ error: r.error, sentAll: r.sentAll, status: r.status, attributes: r.body && (JSON.parse(r.body) as { attributes?: string[] }).attributes }).toEqual({ error: undefined, sentAll: true, status: 422, attributes: ['avatar'] });
    }
  });

  it('a body declared far beyond what is worth reading is answered at once (nothing waits for a gigabyte)', async () => {
    const started = Date.now();
    const r = await exchange(jsonHead('/api/v1/profile', 1024 * MB), { size: 1024 * MB, stopAfter: 256 * 1024 });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toEqual(TOO_LARGE);
    expect(r.writtenBeforeAnswer).toBeLessThan(1024 * MB);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('answered at once, it still reaches a client that keeps sending after it (the connection lingers, no reset)', async () => {
    // Before the lingering close, the socket was destroyed with the client's bytes unread: a reset
    // that made the client's kernel drop the answer (no status at all, now and then under load).
    for (let i = 0; i < 3; i++) {
      const r = await exchange(jsonHead('/api/v1/profile', 1024 * MB), { size: 1024 * MB, stopAfter: 8 * MB });
      expect({ error: r.error, status: r.status }).toEqual({ error: undefined, status: 400 });
      expect(JSON.parse(r.body)).toEqual(TOO_LARGE);
    }
  });
});
