// Small pure checks that keep web mode's local bridge to its own page. The host listens on
// 127.0.0.1, but any web page the agent visits could try to reach it (WebSockets are not bound
// by CORS, and DNS rebinding can make evil.example resolve to 127.0.0.1). So: the Host and Origin
// must be this host's own, and the first frame must carry the per-launch secret.
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const newLaunchSecret = () => randomBytes(32).toString('base64url');

const loopbackNames = (port: number) => [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];

/** Host header values that name this host process: loopback names with our port, nothing else. */
export function isOwnHost(hostHeader: string | undefined, port: number): boolean {
  return hostHeader !== undefined && loopbackNames(port).includes(hostHeader);
}

/** The Origin of a WebSocket handshake must be our own page. A missing origin is refused too. */
export function isOwnOrigin(origin: string | undefined, port: number): boolean {
  return origin !== undefined && loopbackNames(port).some((host) => origin === `http://${host}`);
}

/** Constant-time comparison of the secret the page presents with the launch secret. */
export function secretMatches(presented: unknown, secret: string): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}
