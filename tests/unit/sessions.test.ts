// Sessions through the main core, against the real service in-process: the account picker,
// several saved sessions and switching, sign-out (token and cache), restoring at launch, and
// expiry that keeps the session id (and so the renderer's cache and queued work).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMainCore } from '../../main/core/core';
import type { CoreDeps } from '../../main/core/core';
import { redactingLogger } from '../../main/core/redact';
import { savedSessionsFile } from '../../main/core/session/saved-sessions';
import { memoryVault } from '../../main/core/vault';
import type { TokenCipher } from '../../main/core/vault/cipher';
import { fileVault } from '../../main/core/vault/file-vault';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { fetchVia } from '../support/fake-service';
import { multiAccountUser, singleAccountUser } from '../support/session-fixtures';

let svc: DemoService;
const BASE = 'http://service.test';
const logger = redactingLogger(() => undefined, () => []);
beforeAll(async () => {
  svc = await demoService();
});
afterAll(() => svc.close());

function makeCore(extra: Partial<CoreDeps> = {}) {
  const requests: { url: string; headers: Record<string, string> }[] = [];
  const events: { name: string; payload: unknown }[] = [];
  const core = createMainCore({ vault: memoryVault(), logger, fetch: fetchVia(svc, requests), clientOptions: { retry: { attempts: 1, baseMs: 1, maxMs: 1 } }, ...extra });
  core.onEvent((name, payload) => events.push({ name, payload }));
  return { core, requests, events };
}
const value = <T>(r: { ok: boolean; value?: unknown }) => {
  if (!r.ok) throw new Error(`expected ok: ${JSON.stringify(r)}`);
  return r.value as T;
};

describe('account picker', () => {
  it('asks which account when the user has several, holding the token in main', async () => {
    const user = multiAccountUser(svc);
    const { core } = makeCore();
    const first = value<{ status: string; pendingId: string; accounts: { id: number; name: string }[] }>(await core.call('session.signIn', { baseUrl: BASE, accessToken: user.token }));
    expect(first).toMatchObject({ status: 'choose_account', baseUrl: BASE, user: { email: user.email } });
    expect(first.accounts.map((a) => a.id).sort()).toEqual([svc.creds.accountId, svc.creds.otherAccountId].sort());
    expect(JSON.stringify(first)).not.toContain(user.token);
    expect(await core.call('session.get', {})).toEqual({ ok: true, value: { status: 'signed_out' } });

    const chosen = await core.call('session.chooseAccount', { pendingId: first.pendingId, accountId: svc.creds.otherAccountId });
    expect(chosen).toMatchObject({ ok: true, value: { status: 'signed_in', session: { accountId: svc.creds.otherAccountId, id: `${BASE}#u${user.id}#a${svc.creds.otherAccountId}` } } });
    // Single use.
    expect(await core.call('session.chooseAccount', { pendingId: first.pendingId, accountId: svc.creds.accountId })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
  });

  it('refuses an account the user is not in, and a pick after the pending sign-in expired', async () => {
    const user = multiAccountUser(svc);
    let now = 1_000_000;
    const { core } = makeCore({ now: () => now });
    const a = value<{ pendingId: string }>(await core.call('session.signIn', { baseUrl: BASE, accessToken: user.token }));
    expect(await core.call('session.chooseAccount', { pendingId: a.pendingId, accountId: 99_999 })).toMatchObject({ ok: false, error: { kind: 'not_found' } });
    const b = value<{ pendingId: string }>(await core.call('session.signIn', { baseUrl: BASE, accessToken: user.token }));
    now += 5 * 60_000 + 1;
    expect(await core.call('session.chooseAccount', { pendingId: b.pendingId, accountId: svc.creds.accountId })).toMatchObject({ ok: false, error: { kind: 'invalid_input', message: expect.stringMatching(/expired/) } });
  });

  it('signs straight in when the account is given', async () => {
    const user = multiAccountUser(svc);
    const { core } = makeCore();
    expect(await core.call('session.signIn', { baseUrl: BASE, accessToken: user.token, accountId: svc.creds.accountId })).toMatchObject({ ok: true, value: { status: 'signed_in', session: { accountId: svc.creds.accountId } } });
  });
});

describe('saved sessions', () => {
  it('lists every signed-in session and switches between them; requests follow the active one', async () => {
    // A clock that stands still: two sign-ins in the same millisecond (CI saw it) still list the later first.
    const { core, requests } = makeCore({ now: () => 1_000_000 });
    const agent = value<{ session: { id: string } }>(await core.call('session.signIn', { baseUrl: BASE, accessToken: svc.creds.agentToken }));
    const multi = multiAccountUser(svc);
    const other = value<{ session: { id: string } }>(await core.call('session.signIn', { baseUrl: BASE, accessToken: multi.token, accountId: svc.creds.otherAccountId }));
    const list = value<{ sessions: { id: string; status: string; accountName: string }[] }>(await core.call('session.list', {}));
    expect(list.sessions.map((s) => [s.id, s.status])).toEqual([
      [other.session.id, 'active'],
      [agent.session.id, 'ready'],
    ]);
    expect(list.sessions.map((s) => s.accountName)).toEqual(['Globex Corp', 'Acme Support']);

    await core.call('conversations.list', {});
    expect(requests.at(-1)!.url).toContain(`/accounts/${svc.creds.otherAccountId}/conversations`);
    expect(await core.call('session.switch', { sessionId: agent.session.id })).toMatchObject({ ok: true, value: { status: 'signed_in', session: { id: agent.session.id } } });
    await core.call('conversations.list', {});
    expect(requests.at(-1)!.url).toContain(`/accounts/${svc.creds.accountId}/conversations`);
    expect(requests.at(-1)!.headers.api_access_token).toBe(svc.creds.agentToken);
    const switched = value<{ sessions: { id: string; status: string }[] }>(await core.call('session.list', {}));
    expect(switched.sessions.map((s) => [s.id, s.status])).toEqual([
      [agent.session.id, 'active'],
      [other.session.id, 'ready'],
    ]);
    expect(await core.call('session.switch', { sessionId: 'nope#u1#a1' })).toMatchObject({ ok: false, error: { kind: 'not_found' } });
  });

  it('signs out: deletes the token, forgets the session, and asks the renderer to delete its cache', async () => {
    const vault = memoryVault();
    const { core, events } = makeCore({ vault });
    const s = value<{ session: { id: string } }>(await core.call('session.signIn', { baseUrl: BASE, accessToken: svc.creds.agentToken }));
    expect(await vault.load(s.session.id)).toBe(svc.creds.agentToken);
    expect(await core.call('session.signOut', {})).toEqual({ ok: true, value: { status: 'signed_out' } });
    expect(await vault.load(s.session.id)).toBeUndefined();
    expect(value<{ sessions: unknown[] }>(await core.call('session.list', {})).sessions).toEqual([]);
    expect(events.filter((e) => e.name === 'session.cacheObsolete')).toEqual([{ name: 'session.cacheObsolete', payload: { sessionIds: [s.session.id] } }]);
    // Until the renderer confirms, the id stays on the list (the window may have been closed).
    expect(await core.call('session.obsoleteCaches', {})).toEqual({ ok: true, value: { sessionIds: [s.session.id] } });
    expect(await core.call('session.cacheDeleted', { sessionId: s.session.id })).toEqual({ ok: true, value: { sessionIds: [] } });
    expect(await core.call('conversations.list', {})).toMatchObject({ ok: false, error: { kind: 'not_signed_in' } });
  });

  it('signs out of a saved session that is not the active one, keeping the active one', async () => {
    const { core } = makeCore();
    const first = value<{ session: { id: string } }>(await core.call('session.signIn', { baseUrl: BASE, accessToken: svc.creds.agentToken }));
    const single = singleAccountUser(svc);
    const second = value<{ session: { id: string } }>(await core.call('session.signIn', { baseUrl: BASE, accessToken: single.token }));
    expect(await core.call('session.signOut', { sessionId: first.session.id })).toMatchObject({ ok: true, value: { status: 'signed_in', session: { id: second.session.id } } });
    expect(await core.call('session.signOut', { sessionId: first.session.id })).toMatchObject({ ok: false, error: { kind: 'not_found' } });
  });
});

describe('restoring at launch', () => {
  const osCipher: TokenCipher = { protection: 'os', scheme: 't', encrypt: async (t) => new TextEncoder().encode([...t].reverse().join('')), decrypt: async (d) => [...new TextDecoder().decode(d)].reverse().join('') };
  const weakCipher: TokenCipher = { ...osCipher, protection: 'weak' };
  const launch = (dir: string, cipher: TokenCipher, fetch?: typeof globalThis.fetch) =>
    createMainCore({
      vault: fileVault({ file: join(dir, 'tokens.json'), cipher, logger }),
      savedSessions: savedSessionsFile(join(dir, 'sessions.json'), logger),
      logger,
      fetch: fetch ?? fetchVia(svc),
      clientOptions: { retry: { attempts: 1, baseMs: 1, maxMs: 1 } },
    });

  it('reopens the last session without asking the network, and keeps no token in the sessions file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'launch-'));
    const first = launch(dir, osCipher);
    const s = value<{ session: { id: string } }>(await first.call('session.signIn', { baseUrl: BASE, accessToken: svc.creds.agentToken }));
    await first.drain(1000);
    expect(readFileSync(join(dir, 'sessions.json'), 'utf8')).not.toContain(svc.creds.agentToken);
    const offline = (async () => {
      throw new TypeError('offline');
    }) as unknown as typeof fetch;
    const second = launch(dir, osCipher, offline);
    expect(await second.call('session.get', {})).toMatchObject({ ok: true, value: { status: 'signed_in', session: { id: s.session.id } } });
  });

  it('asks for the token again at launch when the agent chose to enter it each launch, with the same session id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'launch-'));
    const first = launch(dir, weakCipher);
    const s = value<{ session: { id: string } }>(await first.call('session.signIn', { baseUrl: BASE, accessToken: svc.creds.agentToken }));
    expect(await first.call('session.tokenStorage', {})).toEqual({ ok: true, value: { protection: 'weak', choice: 'ask', unsaved: 1 } });
    expect(await first.call('session.setTokenStorage', { choice: 'each_launch' })).toMatchObject({ ok: true, value: { choice: 'each_launch', unsaved: 0 } });
    await first.drain(1000);
    const second = launch(dir, weakCipher);
    expect(await second.call('session.get', {})).toMatchObject({ ok: true, value: { status: 'expired', reason: 'token_needed', session: { id: s.session.id } } });
    expect(value<{ sessions: { status: string }[] }>(await second.call('session.list', {})).sessions[0]!.status).toBe('needs_token');
    expect(await second.call('conversations.list', {})).toMatchObject({ ok: false, error: { kind: 'session_expired' } });
    expect(await second.call('session.signIn', { baseUrl: BASE, accessToken: svc.creds.agentToken })).toMatchObject({ ok: true, value: { status: 'signed_in', session: { id: s.session.id } } });
  });
});

describe('expiry', () => {
  it('marks the session expired on a 401 the profile confirms, keeps its id, and restores it on re-sign-in', async () => {
    const user = singleAccountUser(svc);
    const vault = memoryVault();
    const { core, events } = makeCore({ vault });
    const s = value<{ session: { id: string } }>(await core.call('session.signIn', { baseUrl: BASE, accessToken: user.token }));
    svc.db.prepare('DELETE FROM access_tokens WHERE token = ?').run(user.token);
    expect(await core.call('conversations.list', {})).toMatchObject({ ok: false, error: { kind: 'session_expired', status: 401 } });
    expect(await core.call('session.get', {})).toEqual({ ok: true, value: { status: 'expired', reason: 'token_rejected', session: expect.objectContaining({ id: s.session.id }) } });
    expect(await vault.load(s.session.id)).toBeUndefined();
    // Expiry is not sign-out: the cache (and the outbox in it) stays.
    expect(events.some((e) => e.name === 'session.cacheObsolete')).toBe(false);

    const fresh = (await import('../../server/store/provision')).secret();
    svc.db.prepare("INSERT INTO access_tokens (token, owner_type, owner_id) VALUES (?, 'User', ?)").run(fresh, user.id);
    expect(await core.call('session.signIn', { baseUrl: BASE, accessToken: fresh })).toMatchObject({ ok: true, value: { status: 'signed_in', session: { id: s.session.id } } });
    expect((await core.call('conversations.list', {})).ok).toBe(true);
  });

  it('treats a 401 the profile does not confirm as a permission problem, staying signed in', async () => {
    const base = fetchVia(svc);
    const roleFailure = (async (input: string | URL, init?: RequestInit) =>
      String(input).includes('/conversations') ? new Response(JSON.stringify({ error: 'You are not authorized' }), { status: 401 }) : base(input, init)) as typeof fetch;
    const { core } = makeCore({ fetch: roleFailure });
    await core.call('session.signIn', { baseUrl: BASE, accessToken: svc.creds.agentToken });
    expect(await core.call('conversations.list', {})).toMatchObject({ ok: false, error: { kind: 'forbidden', status: 401 } });
    expect(await core.call('session.get', {})).toMatchObject({ ok: true, value: { status: 'signed_in' } });
  });
});

describe('desktop calls', () => {
  it('opens only safe links through the OS opener; web mode answers opened: false', async () => {
    const opened: string[] = [];
    const { core } = makeCore({ desktop: { openExternal: async (u) => void opened.push(u) } });
    expect(await core.call('shell.openExternal', { url: 'https://Example.com/a%20b' })).toEqual({ ok: true, value: { opened: true, url: 'https://example.com/a%20b' } });
    expect(await core.call('shell.openExternal', { url: 'https://example.com/a b' })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await core.call('shell.openExternal', { url: 'javascript:alert(1)' })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await core.call('shell.openExternal', { url: 'file:///etc/passwd' })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await core.call('shell.openExternal', { url: 'x'.repeat(3000) })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(opened).toEqual(['https://example.com/a%20b']);
    expect(await makeCore().core.call('shell.openExternal', { url: 'https://example.com/' })).toEqual({ ok: true, value: { opened: false, url: 'https://example.com/' } });
  });

  it('reports a failing opener as an error without details', async () => {
    const { core } = makeCore({
      desktop: {
        openExternal: async () => {
          throw new Error('no handler');
        },
      },
    });
    expect(await core.call('shell.openExternal', { url: 'mailto:a@example.com' })).toMatchObject({ ok: false, error: { kind: 'internal' } });
  });

  it('passes the unread count and launch-at-login through to the host, or says they are unsupported', async () => {
    const counts: number[] = [];
    let atLogin = false;
    const { core } = makeCore({ desktop: { setUnreadCount: (n) => (counts.push(n), true), launchAtLogin: { get: async () => atLogin, set: async (v) => void (atLogin = v) } } });
    expect(await core.call('app.setUnreadCount', { count: 7 })).toEqual({ ok: true, value: { shown: true } });
    expect(await core.call('app.setUnreadCount', { count: -1 })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(counts).toEqual([7]);
    expect(await core.call('app.updateSettings', { launchAtLogin: true })).toEqual({ ok: true, value: { launchAtLogin: { supported: true, enabled: true }, osNotifications: false } });
    expect(atLogin).toBe(true);
    const web = makeCore().core;
    expect(await web.call('app.getSettings', {})).toEqual({ ok: true, value: { launchAtLogin: { supported: false, enabled: false }, osNotifications: false } });
    expect(await web.call('app.updateSettings', { launchAtLogin: true })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await web.call('app.setUnreadCount', { count: 3 })).toEqual({ ok: true, value: { shown: false } });
  });
});

describe('quitting', () => {
  it('drain waits for calls in flight', async () => {
    const { core } = makeCore();
    let finished = false;
    void core.call('session.signIn', { baseUrl: BASE, accessToken: svc.creds.agentToken }).then(() => (finished = true));
    expect(await core.drain(10_000)).toBe('drained');
    expect(finished).toBe(true);
  });
});

describe('signing in again to a given session', () => {
  it('refuses a token of another user instead of switching to them', async () => {
    const { core } = makeCore();
    const s = value<{ session: { id: string; accountId: number } }>(await core.call('session.signIn', { baseUrl: BASE, accessToken: svc.creds.agentToken }));
    const other = singleAccountUser(svc);
    const again = await core.call('session.signIn', { baseUrl: BASE, accessToken: other.token, accountId: s.session.accountId, sessionId: s.session.id });
    expect(again).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(await core.call('session.get', {})).toMatchObject({ ok: true, value: { session: { id: s.session.id } } });
    expect(await core.call('session.signIn', { baseUrl: BASE, accessToken: svc.creds.agentToken, accountId: s.session.accountId, sessionId: s.session.id })).toMatchObject({ ok: true, value: { status: 'signed_in' } });
  });
});

describe('the output gate', () => {
  it('drops keys a local handler should never have returned, and reports a malformed answer as internal', async () => {
    const lines: string[] = [];
    const leaky = memoryVault();
    const core = createMainCore({
      vault: { ...leaky, storage: async () => ({ protection: 'memory', choice: 'not_needed', unsaved: 0, token: 'leaked-token-value' }) as never },
      logger: redactingLogger((_l, line) => lines.push(line), () => []),
    });
    expect(await core.call('session.tokenStorage', {})).toEqual({ ok: true, value: { protection: 'memory', choice: 'not_needed', unsaved: 0 } });
    const broken = createMainCore({ vault: { ...leaky, storage: async () => ({ protection: 'nonsense' }) as never }, logger: redactingLogger((_l, line) => lines.push(line), () => []) });
    expect(await broken.call('session.tokenStorage', {})).toMatchObject({ ok: false, error: { kind: 'internal' } });
    expect(lines.join()).toMatch(/outside its output schema/);
  });
});
