// A child process of the service benchmark holding the agent sockets, so that receiving events
// does not share an event loop with the load generator. Parent → child: {connect: {url, sockets:
// [{auth, group}], messages}}, {report} and {close}. Child → parent: {ready}, {counts, wrong,
// others} and {error}. `counts` is, per group and socket, how many different creates it heard
// (message.created events whose content is "bench <n>", n the create's number); `wrong`, per
// group, events heard twice or naming no create of the run; `others`, per group and socket, the
// message.created events of other messages (the warm-up's).
//
// Each socket speaks socket.io's protocol over a bare WebSocket (the `websocket` transport the
// app's main process uses too): open, connect with the handshake auth, answer pings, check event
// frames. The service does exactly the work it does for socket.io-client, which would cost these
// two shared cores several times more CPU to decode 200 copies of every event. Event frames are
// checked as bytes where they lie in the TCP chunk (bench-websocket.ts; their prefix, then the
// create's number after `"content":"bench `), never decoded into strings: these receivers are the
// load generator, and they share the service's cores.
import { benchNumber } from './bench-frames';
import type { BenchWebSocket } from './bench-websocket';
import { OPCODE_TEXT, openWebSocket } from './bench-websocket';

interface Spec {
  auth: Record<string, unknown>;
  group: string;
}

interface Receiver {
  ws: BenchWebSocket;
  group: string;
  count: number;
  /** message.created events of other messages (the warm-up's). */
  others: number;
}

const sockets: Receiver[] = [];
const wrong: Record<string, number> = {};
function connect(url: string, spec: Spec, messages: number, onReady: () => void) {
  // Room for numbers past the run's count, should the load generator number a request it never sends.
  const seen = new Uint8Array(messages * 2);
  const fail = (why: string) => process.send!({ error: `socket failed: ${why}` });
  const onFrame = (opcode: number, chunk: Buffer, start: number, end: number) => {
    if (opcode !== OPCODE_TEXT) return fail(`frame of opcode ${opcode}`);
    const n = benchNumber(chunk, start, end);
    if (n !== undefined) {
      if (n === -1) entry.others++; // another message.created: the warm-up's
      else if (n >= seen.length || seen[n]) wrong[entry.group] = (wrong[entry.group] ?? 0) + 1;
      else {
        seen[n] = 1;
        entry.count++;
      }
      return;
    }
    const text = chunk.toString('utf8', start, end);
    if (text === '2') ws.send('3');
    else if (text.startsWith('0')) ws.send(`40${JSON.stringify(spec.auth)}`);
    else if (text.startsWith('40')) onReady();
    else if (text.startsWith('44')) process.send!({ error: `socket refused: ${text.slice(2)}` });
  };
  const ws = openWebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`, (...frame) => {
    try {
      onFrame(...frame);
    } catch (err) {
      fail(String(err));
    }
  });
  const entry: Receiver = { ws, group: spec.group, count: 0, others: 0 };
  sockets.push(entry);
  ws.opened.catch((err: Error) => fail(err.message));
  ws.socket.on('error', (err) => fail(err.message));
}

process.on('message', (msg: { connect?: { url: string; sockets: Spec[]; messages: number }; report?: true; close?: true }) => {
  if (msg.connect) {
    const { url, sockets: specs, messages } = msg.connect;
    let pending = specs.length;
    for (const spec of specs) connect(url, spec, messages, () => --pending === 0 && process.send!({ ready: true }));
  }
  if (msg.report) {
    const counts: Record<string, number[]> = {};
    const others: Record<string, number[]> = {};
    for (const s of sockets) {
      (counts[s.group] ??= []).push(s.count);
      (others[s.group] ??= []).push(s.others);
    }
    process.send!({ counts, wrong, others });
  }
  if (msg.close) {
    for (const s of sockets) s.ws.socket.destroy();
    process.exit(0);
  }
});
