// A WebSocket stand-in for the web transport's tests: records what the page sends, and lets a
// test play the host (open, accept the hello, reply, drop the connection).
export class FakeSocket {
  static all: FakeSocket[] = [];
  static CONNECTING = 0;
  static OPEN = 1;
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readyState = FakeSocket.CONNECTING;
  sent: unknown[] = [];
  closed = false;
  onopen?: () => void;
  onmessage?: (m: { data: string }) => void;
  onclose?: (e: { code: number }) => void;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  /** The page closes it (no close event: the page asked). */
  close() {
    this.closed = true;
    this.readyState = 3;
  }
  /** The connection opens (the page sends its hello); the host has not answered it yet. */
  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  /** The host accepts the connection and the hello. */
  accept() {
    this.open();
    this.onmessage?.({ data: JSON.stringify({ type: 'ready' }) });
  }
  reply(id: number, result: unknown) {
    this.onmessage?.({ data: JSON.stringify({ type: 'reply', id, result }) });
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({ code: 1006 });
  }
  calls() {
    return this.sent.filter((f): f is { type: 'call'; id: number; name: string } => (f as { type: string }).type === 'call');
  }
}
