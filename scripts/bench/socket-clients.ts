// A child process of the service benchmark holding the agent sockets, so that receiving events
// does not share an event loop with the load generator. Parent → child: {connect: {url, sockets:
// [{auth, group}]}}, {report} and {close}. Child → parent: {ready}, {counts: {group: number[]}}
// (per socket, the message.created events whose content starts with "bench ") and {error}.
//
// Each socket speaks socket.io's protocol over a bare WebSocket (the `websocket` transport the
// app's main process uses too): open, connect with the handshake auth, answer pings, count
// event frames. The service does exactly the work it does for socket.io-client, which would cost
// these two shared cores several times more CPU to decode 200 copies of every event.
import WebSocket from 'ws';

interface Spec {
  auth: Record<string, unknown>;
  group: string;
}

const sockets: { ws: WebSocket; group: string; count: number }[] = [];
const EVENT = '42["message.created",';
const BENCH = '"content":"bench ';

function connect(url: string, spec: Spec, onReady: () => void) {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`, { perMessageDeflate: false });
  const entry = { ws, group: spec.group, count: 0 };
  sockets.push(entry);
  ws.on('message', (data: Buffer) => {
    const text = data.toString();
    if (text.startsWith(EVENT)) {
      if (text.includes(BENCH)) entry.count++;
    } else if (text === '2') ws.send('3');
    else if (text.startsWith('0')) ws.send(`40${JSON.stringify(spec.auth)}`);
    else if (text.startsWith('40')) onReady();
    else if (text.startsWith('44')) process.send!({ error: `socket refused: ${text.slice(2)}` });
  });
  ws.on('error', (err) => process.send!({ error: `socket failed: ${err.message}` }));
}

process.on('message', (msg: { connect?: { url: string; sockets: Spec[] }; report?: true; close?: true }) => {
  if (msg.connect) {
    const { url, sockets: specs } = msg.connect;
    let pending = specs.length;
    for (const spec of specs) connect(url, spec, () => --pending === 0 && process.send!({ ready: true }));
  }
  if (msg.report) {
    const counts: Record<string, number[]> = {};
    for (const s of sockets) (counts[s.group] ??= []).push(s.count);
    process.send!({ counts });
  }
  if (msg.close) {
    for (const s of sockets) s.ws.close();
    process.exit(0);
  }
});
