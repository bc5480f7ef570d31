// Routes a `fetch` call to an in-process service (Fastify inject), so main core can be tested
// against the real service without a socket.
import type { Service } from '../../server/app';

export function fetchVia(service: Service, log?: { url: string; headers: Record<string, string> }[]): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    log?.push({ url: url.toString(), headers });
    const res = await service.app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: url.pathname + url.search,
      headers,
      ...(init?.body ? { payload: String(init.body) } : {}),
    });
    return new Response(res.statusCode === 204 ? null : res.body, { status: res.statusCode, headers: res.headers as Record<string, string> });
  }) as typeof fetch;
}
