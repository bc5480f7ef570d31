// A child process of bench:server holding the agent sockets, so that receiving events does not
// share an event loop with the load generator. Parent → child: {connect: {url, sockets: [{auth,
// group}]}} and {report}. Child → parent: {ready} and {counts: {group: number[]}} (per socket, the
// message.created events whose content starts with "bench ").
import { io } from 'socket.io-client';
import type { Socket } from 'socket.io-client';

interface Spec {
  auth: Record<string, unknown>;
  group: string;
}

const sockets: { socket: Socket; group: string; count: number }[] = [];

process.on('message', (msg: { connect?: { url: string; sockets: Spec[] }; report?: true; close?: true }) => {
  if (msg.connect) {
    const { url, sockets: specs } = msg.connect;
    let pending = specs.length;
    for (const spec of specs) {
      const socket = io(url, { auth: spec.auth, transports: ['websocket'], forceNew: true });
      const entry = { socket, group: spec.group, count: 0 };
      sockets.push(entry);
      socket.on('message.created', (data: { content?: string }) => {
        if (data.content?.startsWith('bench ')) entry.count++;
      });
      socket.once('connect', () => {
        if (--pending === 0) process.send!({ ready: true });
      });
      socket.once('connect_error', (err) => process.send!({ error: `socket refused: ${err.message}` }));
    }
  }
  if (msg.report) {
    const counts: Record<string, number[]> = {};
    for (const s of sockets) (counts[s.group] ??= []).push(s.count);
    process.send!({ counts });
  }
  if (msg.close) {
    for (const s of sockets) s.socket.close();
    process.exit(0);
  }
});
