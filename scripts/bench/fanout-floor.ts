// The floor under live fan-out, for bench:server: bare Node TCP (no WebSocket, no socket.io), one
// pre-built frame of an event's size written to each of `sockets` loopback connections per event,
// one event per event-loop turn, and again with 4 and with 16 events sharing each socket's write
// (what the service's write batching does when events bunch, and under a steady stream:
// server/live/write-coalescing.ts). The receiving ends are a child process that only counts bytes.
// Prints `floor {"batch1": µs, "batch4": µs, "batch16": µs}`: this process's CPU per socket per
// event, what no server writing every event to every socket can go below here.
import { fork } from 'node:child_process';
import type { AddressInfo, Socket } from 'node:net';
import { connect, createServer } from 'node:net';

const SOCKETS = Number(process.env.FLOOR_SOCKETS ?? 200);
const EVENTS = 2_000;
/** A message.created frame's size in the bench's run (its socket.io packet was 837 bytes: the payload with its conversation summary and sender). */
const FRAME = Buffer.alloc(840, 0x61);

if (process.argv[2] === 'receive') {
  let open = 0;
  let bytes = 0;
  for (let i = 0; i < SOCKETS; i++) {
    const s = connect(Number(process.argv[3]), '127.0.0.1', () => ++open === SOCKETS && process.send!({ ready: true }));
    s.on('data', (d: Buffer) => (bytes += d.length));
  }
  process.on('message', () => process.send!({ bytes }));
} else {
  const sockets: Socket[] = [];
  const server = createServer((s) => sockets.push(s));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const child = fork(import.meta.filename, ['receive', String((server.address() as AddressInfo).port)], { execArgv: process.execArgv });
  await new Promise((done) => child.once('message', done));
  const perSocketEvent = async (batch: number) => {
    const before = process.cpuUsage();
    for (let e = 0; e < EVENTS; e += batch) {
      for (const s of sockets) {
        s.cork();
        for (let b = 0; b < batch; b++) s.write(FRAME);
        s.uncork();
      }
      await new Promise((next) => setImmediate(next));
    }
    const used = process.cpuUsage(before);
    return (used.user + used.system) / EVENTS / SOCKETS;
  };
  const result = { batch1: await perSocketEvent(1), batch4: await perSocketEvent(4), batch16: await perSocketEvent(16) };
  console.log(`floor ${JSON.stringify(result)}`);
  child.kill();
  for (const s of sockets) s.destroy();
  server.close();
}
