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
// checked as bytes (their prefix, then the create's number after `"content":"bench `), never
// decoded into strings: these receivers are the load generator, and they share the service's cores.
import WebSocket from 'ws';
import { benchNumber } from './bench-frames';

interface Spec {
  auth: Record<string, unknown>;
  group: string;
}

interface Receiver {
  ws: WebSocket;
  group: string;
  /** seen[n]: the create numbered n was heard. */
  seen: Uint8Array;
  count: number;
  /** message.created events of other messages (the warm-up's). */
  others: number;
}

const sockets: Receiver[] = [];
const wrong: Record<string, number> = {};
function connect(url: string, spec: Spec, messages: number, onReady: () => void) {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`, { perMessageDeflate: false });
  // Room for numbers past the run's count, should the load generator number a request it never sends.
  const entry: Receiver = { ws, group: spec.group, seen: new Uint8Array(messages * 2), count: 0, others: 0 };
  sockets.push(entry);
  ws.on('message', (data: Buffer) => {
    const n = benchNumber(data);
    if (n !== undefined) {
      if (n === -1) entry.others++; // another message.created: the warm-up's
      else if (n >= entry.seen.length || entry.seen[n]) wrong[entry.group] = (wrong[entry.group] ?? 0) + 1;
      else {
        entry.seen[n] = 1;
        entry.count++;
      }
      return;
    }
    const text = data.toString();
    if (text === '2') ws.send('3');
    else if (text.startsWith('0')) ws.send(`40${JSON.stringify(spec.auth)}`);
    else if (text.startsWith('40')) onReady();
    else if (text.startsWith('44')) process.send!({ error: `socket refused: ${text.slice(2)}` });
  });
  ws.on('error', (err) => process.send!({ error: `socket failed: ${err.message}` }));
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
    for (const s of sockets) s.ws.close();
    process.exit(0);
  }
});
