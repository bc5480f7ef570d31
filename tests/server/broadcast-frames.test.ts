// A broadcast's WebSocket frame written straight to each plain WebSocket connection
// (server/live/broadcast-frames.ts): one write of the whole frame per socket, the same bytes, and
// nothing overtaken, lost or doubled when engine.io holds packets of its own or a connection drops.
// ActionCable's deliveries share a turn's TCP write too (server/live/cable/server.ts).
import type { Socket as NetSocket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContact } from '../../server/store/writes';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { subscribeRoom } from '../support/official-cable';
import { connectSocket } from '../support/sockets';
import type { TestSocket } from '../support/sockets';

let svc: DemoService;
let baseUrl: string;
const open: { close(): void }[] = [];
beforeAll(async () => {
  svc = await demoService();
  baseUrl = await svc.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const s of open) s.close();
  await svc.close();
});

async function admin(opts: { reconnectionDelay?: number } = {}) {
  const { pubsub_token } = svc.db.prepare('SELECT pubsub_token FROM users WHERE email = ?').get('alex@acme.example') as { pubsub_token: string };
  const s = await connectSocket(baseUrl, { pubsub_token, account_id: svc.creds.accountId }, opts);
  open.push(s);
  return s;
}

/** The server's side of a client's connection: its socket.io socket and the TCP socket under its WebSocket. */
function serverSide(s: TestSocket) {
  const socket = [...svc.live.io!.of('/').sockets.values()].find((x) => x.id === s.socket.id)!;
  const ws = (socket.conn as unknown as { transport: { socket: { _socket: NetSocket } } }).transport.socket;
  return { socket, tcp: ws._socket };
}

/** A contact.created broadcast to every agent socket of the account; answers its name. */
function broadcast(label: string): string {
  const name = `${label} ${randomUUID()}`;
  createContact({ db: svc.db, bus: svc.bus, now: svc.clock() }, { accountId: svc.creds.accountId, name });
  return name;
}

/** Broadcasts a contact.created and waits until each of `sockets` has it. */
async function hearAll(label: string, ...sockets: TestSocket[]) {
  const name = broadcast(label);
  await Promise.all(sockets.map((s) => s.next('contact.created', (d) => d.name === name)));
}

const heard = (s: TestSocket, name: string) => s.received.filter((r) => r.name === 'contact.created' && r.data.name === name);

describe('broadcast frames', () => {
  it('reach a plain WebSocket connection as one write of the whole frame, decoded as before', async () => {
    const s = await admin();
    await hearAll('warm', s);
    const { tcp } = serverSide(s);
    const writes: Buffer[] = [];
    const write = tcp.write.bind(tcp) as (chunk: Buffer, ...rest: unknown[]) => boolean;
    tcp.write = ((chunk: Buffer, ...rest: unknown[]) => {
      writes.push(Buffer.from(chunk));
      return write(chunk, ...rest);
    }) as typeof tcp.write;
    const arrived = s.next('contact.created');
    const name = broadcast('one write');
    expect((await arrived).data).toMatchObject({ name, account_id: svc.creds.accountId });
    tcp.write = write as typeof tcp.write;
    // engine.io's path wrote the frame's header and its payload as two writes.
    expect(writes).toHaveLength(1);
    const frame = writes[0]!;
    // A final unmasked text frame whose payload is the engine.io message packet of the event.
    expect(frame[0]).toBe(0x81);
    const length = frame[1]! === 126 ? frame.readUInt16BE(2) : frame[1]!;
    const payload = frame.subarray(frame[1]! === 126 ? 4 : 2).toString();
    expect(payload.length).toBe(length);
    expect(payload.startsWith('42["contact.created",')).toBe(true);
    expect(heard(s, name)).toHaveLength(1);
  });

  it('come after packets engine.io holds for the connection, in order', async () => {
    const s = await admin();
    await hearAll('warm', s);
    const { socket } = serverSide(s);
    const last = s.next('contact.created');
    // Packets written through engine.io itself (as its pings are; socket.emit goes through the
    // adapter's broadcast here, since connection state recovery is on): the first is written at
    // once, the second waits in engine.io's buffer for that write to complete. The broadcast, in
    // the same turn, must not overtake it.
    const conn = socket.conn as unknown as { write(data: string): void };
    conn.write('2["presence.update",{"order":1}]');
    conn.write('2["presence.update",{"order":2}]');
    const name = broadcast('after own packets');
    await last;
    const order = s.received.slice(-3).map((r) => (r.name === 'presence.update' ? `own ${String(r.data.order)}` : String(r.data.name)));
    expect(order).toEqual(['own 1', 'own 2', name]);
  });

  it('a connection whose TCP socket is gone when an event is broadcast gets it once, on recovery; the others once', async () => {
    const [dropped, stays] = [await admin({ reconnectionDelay: 10 }), await admin()];
    await hearAll('warm', dropped, stays);
    const back = new Promise<void>((resolve) => dropped.socket.io.once('reconnect', () => resolve()));
    const { tcp } = serverSide(dropped);
    // The TCP connection ends in the same turn as the broadcast, before engine.io has heard of it.
    tcp.destroy();
    const name = broadcast('while dropping');
    await back;
    // A later event both must get: after it, an earlier one can no longer arrive (per-socket order).
    await hearAll('barrier', dropped, stays);
    expect(dropped.socket.recovered).toBe(true);
    expect(heard(dropped, name)).toHaveLength(1);
    expect(heard(stays, name)).toHaveLength(1);
  });
});

describe('ActionCable deliveries', () => {
  it("of one event-loop turn leave in one TCP write per connection, in order, as the official client reads them", async () => {
    // The server's side of the next /cable connection, taken from its upgrade request.
    const upgraded = new Promise<NetSocket>((resolve) => {
      const onUpgrade = (request: { url?: string }, socket: NetSocket) => {
        if (!request.url?.startsWith('/cable')) return;
        svc.app.server.off('upgrade', onUpgrade);
        resolve(socket);
      };
      svc.app.server.on('upgrade', onUpgrade);
    });
    const { pubsub_token, id } = svc.db.prepare('SELECT id, pubsub_token FROM users WHERE email = ?').get('alex@acme.example') as { id: number; pubsub_token: string };
    const cable = await subscribeRoom(baseUrl, { pubsub_token, account_id: svc.creds.accountId, user_id: id });
    open.push(cable);
    const tcp = await upgraded;
    let writes = 0;
    for (const method of ['_write', '_writev'] as const) {
      const original = tcp[method]!.bind(tcp) as (...args: unknown[]) => void;
      (tcp as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        writes++;
        original(...args);
      };
    }
    const batch = Array.from({ length: 10 }, (_, i) => `Cable batch ${i} ${randomUUID()}`);
    const last = cable.next('contact.created', (d) => d.name === batch[9]);
    for (const name of batch) createContact({ db: svc.db, bus: svc.bus, now: svc.clock() }, { accountId: svc.creds.accountId, name });
    await last;
    expect(cable.received.filter((r) => r.event === 'contact.created').map((r) => r.data.name).slice(-10)).toEqual(batch);
    // One ws send (one write) per event before.
    expect(writes).toBe(1);
  });
});
