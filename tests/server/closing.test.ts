// A service asked to close answers the request it is in the middle of, then ends that connection,
// and closes at once. Fastify answered such a request with keep-alive, and the connection then held
// the close for keep-alive's 72 s (the web host's close hung that way in CI, 2026-12-03).
import net from 'node:net';
import { expect, it } from 'vitest';
import { demoService } from '../support/demo-service';
import { within } from '../support/within';

it('answers a request under way when the close begins, with Connection: close, and closes at once', async () => {
  const svc = await demoService();
  await svc.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = svc.app.server.address() as net.AddressInfo;
  const socket = net.connect({ port, host: '127.0.0.1' });
  await new Promise((resolve) => socket.once('connect', resolve));
  let answer = '';
  socket.on('data', (d: Buffer) => (answer += d.toString()));
  const ended = new Promise((resolve) => socket.once('close', resolve));
  const body = JSON.stringify({ name: 'Ana', email: 'ana@example.com' });
  // The head and part of the body: the request is under way, its handler not yet run.
  socket.write(`POST /public/api/v1/inboxes/no-such-inbox/contacts HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const closed = svc.close().then(() => 'closed');
  await new Promise((resolve) => setTimeout(resolve, 50));
  socket.write(body.slice(10));
  const outcome = await within(closed, 5_000);
  if (outcome !== 'closed') socket.destroy();
  expect(outcome).toBe('closed');
  await ended;
  // Answered (whatever the answer), and told the connection ends with it.
  expect(answer).toMatch(/^HTTP\/1\.1 \d{3} /);
  expect(answer.toLowerCase()).toContain('connection: close');
}, 20_000);
