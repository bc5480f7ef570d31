// Web mode: a local host process on 127.0.0.1 that runs the same main core as the Electron app,
// serves the built renderer to any browser, and carries the bridge over a WebSocket. The page
// learns the per-launch secret from the URL fragment (never sent to a server or a log).
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { callEnvelopeSchema } from '../../shared/bridge/wire';
import type { MainCore } from '../core/core';
import type { Logger } from '../core/redact';
import { rendererCsp } from '../core/security/renderer-csp';
import { isOwnHost, isOwnOrigin, newLaunchSecret, secretMatches } from './guards';

export interface WebHostOptions {
  core: MainCore;
  /** Folder with the built renderer (index.html and assets). */
  staticDir: string;
  port?: number;
  secret?: string;
  logger: Logger;
}

export interface WebHost {
  /** The address to open, with the launch secret in the fragment. */
  url: string;
  port: number;
  close(): Promise<void>;
}

const HELLO_TIMEOUT_MS = 5_000;
/**
 * The largest frame the page may send: a message with its files (25 MB of bytes, base64, plus up to
 * 150,000 characters of text) fits; anything larger closes the socket (ws answers 1009).
 */
export const MAX_FRAME_BYTES = 40 * 1024 * 1024;

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A file of the build's assets/ folder (named by its content's hash), not index.html or anything beside it. */
export function isBuiltAsset(staticDir: string, filePath: string): boolean {
  const rel = relative(resolve(staticDir, 'assets'), resolve(filePath));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  if (!existsSync(`${options.staticDir}/index.html`)) {
    throw new Error(`No built renderer in ${options.staticDir}: run \`npm run build\` first.`);
  }
  const secret = options.secret ?? newLaunchSecret();
  // Closing ends every connection, not only idle ones: a page's request under way when the close
  // began kept its connection alive after the answer, and the close waited keep-alive's 72 s for it
  // (CI: the e2e fixture's close past its timeout). The host closes only when its process is done
  // with it; the page reconnects to the next one and asks again.
  const app = Fastify({ logger: false, forceCloseConnections: true });
  let port = 0;
  const csp = rendererCsp();

  app.addHook('onRequest', async (request, reply) => {
    if (!isOwnHost(request.headers.host, port)) return reply.code(421).send('Misdirected request');
  });
  app.addHook('onSend', async (_request, reply) => {
    // A file served has its own (its page's inline scripts: setHeaders below); anything else the plain one.
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', csp(undefined));
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin');
  });
  await app.register(fastifyStatic, {
    root: options.staticDir,
    index: 'index.html',
    dotfiles: 'deny',
    // The build names every file under assets/ by its content's hash (Vite), so a file there never
    // changes: the page takes it from the browser's cache without asking again (without this, each
    // open revalidated every script and style, a round trip each to this process before the app's
    // code could run). index.html and the rest are asked for every time, so a new build is seen at once.
    setHeaders: (reply, path) => {
      reply.header('cache-control', isBuiltAsset(options.staticDir, path) ? IMMUTABLE : 'no-cache');
      reply.header('content-security-policy', csp(path));
    },
  });

  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  app.server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== '/bridge' || !isOwnHost(request.headers.host, port) || !isOwnOrigin(request.headers.origin, port)) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => accept(ws));
  });

  function accept(ws: WebSocket) {
    let authenticated = false;
    // Once the host closes a socket, nothing more on it is read: the page sends its first calls
    // right behind its hello and relies on none of them running when that hello is refused.
    let closing = false;
    const refuse = (code: number, reason: string) => {
      closing = true;
      ws.close(code, reason);
    };
    const timer = setTimeout(() => authenticated || refuse(4401, 'No hello'), HELLO_TIMEOUT_MS);
    ws.on('message', async (data) => {
      if (closing) return;
      let frame: unknown;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        refuse(4400, 'Malformed frame');
        return;
      }
      if (!authenticated) {
        const hello = frame as { type?: unknown; secret?: unknown };
        if (hello?.type !== 'hello' || !secretMatches(hello.secret, secret)) {
          refuse(4401, 'Wrong launch secret');
          return;
        }
        authenticated = true;
        clearTimeout(timer);
        sockets.add(ws);
        ws.send(JSON.stringify({ type: 'ready' }));
        return;
      }
      const call = callEnvelopeSchema.safeParse(frame);
      if (!call.success) {
        refuse(4400, 'Malformed frame');
        return;
      }
      const result = await options.core.call(call.data.name, call.data.input);
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'reply', id: call.data.id, result }));
    });
    ws.on('close', () => {
      clearTimeout(timer);
      sockets.delete(ws);
    });
    ws.on('error', (err) => options.logger.warn('bridge socket error', err));
  }

  const unsubscribe = options.core.onEvent((name, payload) => {
    const frame = JSON.stringify({ type: 'event', name, payload });
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(frame);
  });

  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/#k=${secret}`,
    port,
    async close() {
      unsubscribe();
      // Every socket it accepted, not only those past their hello: the page reconnects the moment
      // its socket goes, and one that said its hello during the close was left open and kept the
      // server's close waiting for good. Closed first, the server refuses upgrades still in flight.
      wss.close();
      for (const ws of wss.clients) ws.terminate();
      await app.close();
    },
  };
}
