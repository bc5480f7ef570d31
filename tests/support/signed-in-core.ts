// Main core (the code both transports drive) signed in to an in-process demo service, with every
// request it sent recorded. Unit tests call it directly; renderer tests wrap it as a bridge.
import { expect } from 'vitest';
import { createMainCore } from '../../main/core/core';
import { redactingLogger } from '../../main/core/redact';
import { memoryVault } from '../../main/core/vault';
import type { DemoService } from './demo-service';
import { fetchVia } from './fake-service';

export const DEMO_BASE_URL = 'http://service.test';

export async function signedInCore(svc: DemoService, opts: { fetch?: typeof fetch; token?: string; retryAttempts?: number } = {}) {
  const requests: { url: string; headers: Record<string, string> }[] = [];
  const core = createMainCore({
    vault: memoryVault(),
    logger: redactingLogger(() => undefined, () => []),
    fetch: opts.fetch ?? fetchVia(svc, requests),
    clientOptions: { retry: { attempts: opts.retryAttempts ?? 1, baseMs: 1, maxMs: 1 } },
  });
  const signIn = await core.call('session.signIn', { baseUrl: DEMO_BASE_URL, accessToken: opts.token ?? svc.creds.agentToken });
  expect(signIn.ok).toBe(true);
  return { core, requests, signIn };
}
