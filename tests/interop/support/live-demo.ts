// The demo service listening on a real loopback port, for third-party clients that speak HTTP
// themselves (axios, fetch): what `npm run server -- --demo` serves, in this process.
import type { AddressInfo } from 'node:net';
import { demoService } from '../../support/demo-service';
import type { DemoService } from '../../support/demo-service';

export interface LiveDemo {
  svc: DemoService;
  baseUrl: string;
  close(): Promise<void>;
}

export async function liveDemo(): Promise<LiveDemo> {
  const svc = await demoService();
  await svc.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = svc.app.server.address() as AddressInfo;
  return { svc, baseUrl: `http://127.0.0.1:${port}`, close: () => svc.close() };
}

/** A tally of client calls: each records whether it succeeded, for the summary line. */
export class CallTally {
  readonly results = new Map<string, boolean>();
  record(name: string, ok: boolean) {
    this.results.set(name, ok);
  }
  summary(client: string): string {
    const ok = [...this.results.values()].filter(Boolean).length;
    return `${client}: ${ok} of ${this.results.size} calls succeed`;
  }
}
