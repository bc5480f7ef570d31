// A bare WebSocket to /cable for wire-level tests: every text frame the service sends is kept,
// parsed; `next` waits for the next matching one; `send` writes a command as a client would.
import { WebSocket } from 'ws';

export type Frame = Record<string, unknown>;

export interface RawCable {
  ws: WebSocket;
  frames: Frame[];
  /** The raw text of every frame, in order. */
  texts: string[];
  /** The first matching frame from index `from` on (default: the next one to arrive). */
  next(match: (f: Frame) => boolean, from?: number): Promise<Frame>;
  send(command: Record<string, unknown>): void;
  closed: Promise<{ code: number }>;
}

export function openRawCable(baseUrl: string, opts: { protocols?: string[]; headers?: Record<string, string>; path?: string } = {}): Promise<RawCable> {
  const url = `${baseUrl.replace(/^http/, 'ws')}${opts.path ?? '/cable'}`;
  const ws = new WebSocket(url, opts.protocols ?? ['actioncable-v1-json', 'actioncable-unsupported'], { headers: opts.headers ?? {} });
  const frames: Frame[] = [];
  const texts: string[] = [];
  const waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  ws.on('message', (data) => {
    const text = data.toString();
    texts.push(text);
    const frame = JSON.parse(text) as Frame;
    frames.push(frame);
    for (const w of [...waiters]) {
      if (!w.match(frame)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(frame);
    }
  });
  const closed = new Promise<{ code: number }>((resolve) => ws.once('close', (code) => resolve({ code })));
  const api: RawCable = {
    ws,
    frames,
    texts,
    next: (match, from = frames.length) => {
      const seen = frames.slice(from).find(match);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ match, resolve }));
    },
    send: (command) => ws.send(JSON.stringify(command)),
    closed,
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(api));
    ws.once('error', reject);
  });
}

export const roomIdentifier = (params: Record<string, unknown>) => JSON.stringify({ channel: 'RoomChannel', ...params });
