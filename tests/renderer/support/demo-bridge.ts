// A real bridge for renderer tests: main core (the same code both transports drive) signed in to
// the in-process demo service. What the renderer sees is what the app would see.
import type { Bridge } from '../../../shared/bridge/contract';
import type { SessionInfo } from '../../../shared/bridge/calls/session';
import { afterAll, beforeAll } from 'vitest';
import type { DemoService } from '../../support/demo-service';
import { demoService } from '../../support/demo-service';
import { fetchVia, withoutExtensions } from '../../support/fake-service';
import { signedInCore } from '../../support/signed-in-core';

export interface DemoBridge {
  bridge: Bridge;
  session: SessionInfo;
  /** Every call the renderer made, by name. */
  calls: { name: string; input: unknown }[];
}

/** `extensions: false`: the service as one without our extensions (like a real Chatwoot installation). */
export async function demoBridge(svc: DemoService, token = svc.creds.agentToken, opts: { extensions?: boolean } = {}): Promise<DemoBridge> {
  const { core, signIn } = await signedInCore(svc, { token, ...(opts.extensions === false ? { fetch: withoutExtensions(fetchVia(svc)) } : {}) });
  if (!signIn.ok || (signIn.value as { status: string }).status !== 'signed_in') throw new Error('demo sign-in failed');
  const calls: { name: string; input: unknown }[] = [];
  const bridge = {
    call: (name: string, input: unknown) => {
      calls.push({ name, input });
      return core.call(name, input);
    },
    on: () => () => undefined,
  } as unknown as Bridge;
  const session = (signIn.value as { session: SessionInfo }).session;
  return { bridge, session, calls };
}

/** The demo service and a bridge to it for the tests of one file: started before them, closed after. */
export function demoForFile(): { readonly svc: DemoService; readonly demo: DemoBridge } {
  const started = {} as { svc: DemoService; demo: DemoBridge };
  beforeAll(async () => {
    started.svc = await demoService();
    started.demo = await demoBridge(started.svc);
  });
  afterAll(() => started.svc.close());
  return started;
}
