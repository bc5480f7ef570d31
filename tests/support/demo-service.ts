// A demo service in this process (Fastify inject, :memory: SQLite) with a controllable clock.
import { buildService } from '../../server/app';
import type { Service, ServiceOptions } from '../../server/app';
import { seedDemo } from '../../server/demo/seed';
import type { DemoCredentials } from '../../server/demo/seed';

export const DEMO_NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

export interface DemoService extends Service {
  creds: DemoCredentials;
  setNow(ms: number): void;
  /** Inject a request; `token` goes in the api_access_token header. */
  request(opts: { method?: string; url: string; token?: string; payload?: unknown; headers?: Record<string, string>; remoteAddress?: string }): Promise<{ status: number; body: unknown; text: string; headers: Record<string, unknown> }>;
}

export async function demoService(opts: Omit<ServiceOptions, 'db' | 'clock'> = {}): Promise<DemoService> {
  let now = DEMO_NOW;
  const service = await buildService({ db: ':memory:', clock: () => now, ...opts });
  const creds = seedDemo(service.db, now);
  return {
    ...service,
    creds,
    setNow: (ms) => {
      now = ms;
    },
    async request({ method = 'GET', url, token, payload, headers = {}, remoteAddress }) {
      const res = await service.app.inject({
        method: method as 'GET',
        url,
        ...(remoteAddress ? { remoteAddress } : {}),
        headers: { ...(token ? { api_access_token: token } : {}), ...headers },
        ...(payload === undefined ? {} : typeof payload === 'string' ? { payload, headers: { 'content-type': 'application/json', ...(token ? { api_access_token: token } : {}), ...headers } } : { payload: payload as object }),
      });
      let body: unknown;
      try {
        body = res.body ? JSON.parse(res.body) : undefined;
      } catch {
        body = undefined;
      }
      return { status: res.statusCode, body, text: res.body, headers: res.headers };
    },
  };
}
