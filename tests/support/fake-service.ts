// Routes a `fetch` call to an in-process service (Fastify inject), so main core can be tested
// against the real service without a socket.
import type { Service } from '../../server/app';

export function fetchVia(service: Service, log?: { url: string; headers: Record<string, string> }[]): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    // As a real fetch does: the Host names the address asked for (the service builds file links from it).
    const headers = { host: url.host, ...Object.fromEntries(new Headers(init?.headers).entries()) };
    log?.push({ url: url.toString(), headers });
    // A stream body (a multipart form with files) is read whole; the answer keeps its bytes as sent.
    const body = init?.body instanceof ReadableStream ? Buffer.from(await new Response(init.body).arrayBuffer()) : init?.body ? String(init.body) : undefined;
    const res = await service.app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: url.pathname + url.search,
      headers,
      ...(body !== undefined ? { payload: body } : {}),
    });
    return new Response(res.statusCode === 204 ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers: res.headers as Record<string, string> });
  }) as typeof fetch;
}

/**
 * The same service as a client sees one without our extensions (a real Chatwoot installation):
 * the requests lose `Idempotency-Key` and `If-Match`, the answers lose `X-Inbox-Extensions` and
 * `ETag`. The chaos suite's proxy does the same with `--no-extensions`.
 */
export function withoutExtensions(inner: typeof fetch): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    headers.delete('idempotency-key');
    headers.delete('if-match');
    const res = await inner(input, { ...init, headers });
    const out = new Headers(res.headers);
    out.delete('x-inbox-extensions');
    out.delete('etag');
    return new Response(res.status === 204 ? null : await res.text(), { status: res.status, headers: out });
  }) as typeof fetch;
}
