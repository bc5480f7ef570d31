// No bridge call or event can carry the token back to the renderer. Two checks: statically, no
// output or event schema has a field that could hold a credential (zod drops unknown keys, and
// main parses every answer with these schemas); at run time, a whole session's worth of answers
// and events contains no token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { profileSchema } from '../../shared/api/records';
import { bridgeCalls } from '../../shared/bridge/contract';
import { bridgeEvents } from '../../shared/bridge/events';
import { createMainCore } from '../../main/core/core';
import { createSecretRegistry, redactingLogger } from '../../main/core/redact';
import { memoryVault } from '../../main/core/vault';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { fetchVia } from '../support/fake-service';
import { multiAccountUser } from '../support/session-fixtures';

const CREDENTIAL_NAME = /token|secret|password|passwd|credential|api[_-]?key|authorization|cookie|hmac[_-]?(token|key)/i;

/** Every object key reachable in a zod schema, with its path. */
function keysOf(schema: z.ZodType, path = '$', seen = new Set<unknown>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  const inner = (s: unknown, p = path) => keysOf(s as z.ZodType, p, seen);
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([k, v]) => [`${path}.${k}`, ...inner(v, `${path}.${k}`)]);
    case 'array':
      return inner(def.element, `${path}[]`);
    case 'union':
      return (def.options as z.ZodType[]).flatMap((o) => inner(o));
    case 'record':
      // Free-form keys could be anything, including a token: no output may have them.
      return [`${path}.<record>`, ...inner(def.valueType, `${path}.<record>`)];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
    case 'prefault':
      return inner(def.innerType);
    case 'pipe':
      return [...inner(def.in), ...inner(def.out)];
    case 'lazy':
      return inner((def.getter as () => z.ZodType)());
    default:
      return [];
  }
}

describe('schemas', () => {
  it('the walker finds credentials where they are (the service profile has two)', () => {
    expect(keysOf(profileSchema).filter((k) => CREDENTIAL_NAME.test(k))).toEqual(['$.pubsub_token']);
  });

  const outputs = Object.entries(bridgeCalls).map(([name, c]) => [name, c.output] as const);
  const events = Object.entries(bridgeEvents);
  it.each([...outputs, ...events.map(([n, s]) => [`event ${n}`, s] as const)])('%s has no field that could carry a token', (_name, schema) => {
    const keys = keysOf(schema as z.ZodType);
    expect(keys.filter((k) => CREDENTIAL_NAME.test(k.split('.').pop()!))).toEqual([]);
  });

  it('covers the session, desktop and read calls, and every event', () => {
    expect(outputs.map(([n]) => n)).toEqual(
      expect.arrayContaining([
        'session.get', 'session.signIn', 'session.chooseAccount', 'session.list', 'session.switch', 'session.signOut',
        'session.obsoleteCaches', 'session.cacheDeleted', 'session.tokenStorage', 'session.setTokenStorage',
        'app.getSettings', 'app.updateSettings', 'app.setUnreadCount', 'app.liveStatus', 'app.notify', 'shell.openExternal',
        'conversations.list', 'conversations.get', 'messages.list', 'files.attachment', 'files.avatar',
      ]),
    );
    expect(events.map(([n]) => n)).toEqual(['session.changed', 'session.cacheObsolete', 'live.status', 'live.event', 'live.catchUp', 'app.notificationClicked', 'app.notificationAction', 'messages.uploadProgress']);
  });

  it('no session or desktop output has free-form keys where a token could hide', () => {
    for (const [name, schema] of outputs) {
      if (!name.startsWith('session.') && !name.startsWith('app.') && !name.startsWith('shell.')) continue;
      expect(keysOf(schema as z.ZodType).filter((k) => k.includes('<record>')), name).toEqual([]);
    }
  });
});

describe('a whole session at run time', () => {
  let svc: DemoService;
  beforeAll(async () => {
    svc = await demoService();
  });
  afterAll(() => svc.close());

  it('answers and events never contain the token, and neither does the log', async () => {
    const user = multiAccountUser(svc);
    const lines: string[] = [];
    const secrets = createSecretRegistry();
    const logger = redactingLogger((_l, line) => lines.push(line), () => secrets.values());
    const core = createMainCore({ vault: memoryVault(), logger, secrets, fetch: fetchVia(svc), clientOptions: { retry: { attempts: 1, baseMs: 1, maxMs: 1 } }, desktop: { openExternal: async () => undefined, setUnreadCount: () => true } });
    const seen: unknown[] = [];
    core.onEvent((name, payload) => seen.push({ name, payload }));
    const call = async (name: string, input: unknown) => {
      const r = await core.call(name, input);
      seen.push(r);
      return r as { ok: boolean; value?: Record<string, unknown> };
    };

    const pick = await call('session.signIn', { baseUrl: 'http://service.test', accessToken: user.token });
    await call('session.chooseAccount', { pendingId: pick.value!.pendingId, accountId: svc.creds.accountId });
    await call('session.signIn', { baseUrl: 'http://service.test', accessToken: svc.creds.agentToken });
    await call('session.signIn', { baseUrl: 'http://service.test', accessToken: 'wrong-but-secret-looking-token' });
    const list = await call('conversations.list', {});
    const first = (list.value as { data: { payload: { id: number }[] } }).data.payload[0]!;
    await call('conversations.get', { conversationId: first.id });
    await call('messages.list', { conversationId: first.id });
    await call('session.list', {});
    await call('session.get', {});
    await call('session.tokenStorage', {});
    await call('app.getSettings', {});
    await call('app.setUnreadCount', { count: 2 });
    await call('shell.openExternal', { url: 'https://example.com' });
    await call('session.signOut', {});
    await call('session.obsoleteCaches', {});
    await call('session.list', {});
    logger.error('something failed', { headers: { api_access_token: user.token } });

    const everything = JSON.stringify(seen);
    for (const token of [user.token, svc.creds.agentToken, 'wrong-but-secret-looking-token']) {
      expect(everything).not.toContain(token);
      expect(lines.join('\n')).not.toContain(token);
    }
    expect(everything).not.toContain('pubsub_token');
    expect(seen.length).toBeGreaterThan(18);
  });
});
