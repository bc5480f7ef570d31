// The session screens in jsdom with a fake bridge: the account picker, the token field cleared
// once main has it, the weak-storage consent, the re-sign-in dialog, deleting signed-out caches,
// and opening links through main.
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Dexie from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionDbName } from '../../renderer/src/client/inbox-client';
import { InboxDb } from '../../renderer/src/db/schema';

const dbForSession = (id: string) => new InboxDb(sessionDbName(id));
import { purgeCaches } from '../../renderer/src/platform/cache-purge';
import { openExternalLink } from '../../renderer/src/platform/external-links';
import { ReauthPrompt } from '../../renderer/src/screens/ReauthPrompt';
import { SignIn } from '../../renderer/src/screens/SignIn';
import { TokenStorageConsent } from '../../renderer/src/screens/TokenStorageConsent';
import { fakeBridge } from './fake-bridge';

afterEach(cleanup);
const ok = <T,>(value: T) => ({ ok: true as const, value });
const session = { id: 'svc.example#u7#a2', baseUrl: 'https://svc.example', accountId: 2, user: { id: 7, name: 'Morgan', email: 'morgan@acme.example', role: 'agent' }, accounts: [{ id: 2, name: 'Globex', role: 'agent' }] };

describe('sign-in with several accounts', () => {
  const chooseAccount = { status: 'choose_account', pendingId: 'p-1', baseUrl: 'https://svc.example', user: { name: 'Morgan', email: 'morgan@acme.example' }, accounts: [{ id: 1, name: 'Acme Support', role: 'agent' }, { id: 2, name: 'Globex', role: 'administrator' }] };

  it('asks which account, with the token gone from the page, then opens the one picked', async () => {
    const onSignedIn = vi.fn();
    const fake = fakeBridge({
      'session.list': () => ok({ sessions: [] }),
      'session.signIn': () => ok(chooseAccount),
      'session.chooseAccount': () => ok({ status: 'signed_in', session }),
    });
    const user = userEvent.setup();
    render(<SignIn bridge={fake.bridge} onSignedIn={onSignedIn} />);
    await user.type(screen.getByLabelText('Service address'), 'https://svc.example');
    await user.type(screen.getByLabelText('Access token'), 'secret-token-123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    const heading = await screen.findByRole('heading', { name: 'Choose an account' });
    expect(document.activeElement).toBe(heading);
    expect(screen.queryByLabelText('Access token')).toBeNull();
    expect(document.body.innerHTML).not.toContain('secret-token-123');
    const group = screen.getByRole('group', { name: 'Account' });
    expect(group).toBeTruthy();
    expect(screen.getByRole('radio', { name: /Acme Support/ })).toHaveProperty('checked', true);
    await user.click(screen.getByRole('radio', { name: /Globex/ }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalled());
    expect(fake.callsTo('session.chooseAccount')).toEqual([{ pendingId: 'p-1', accountId: 2 }]);
  });

  it('goes back to the form with the reason when the pending sign-in expired', async () => {
    const fake = fakeBridge({
      'session.list': () => ok({ sessions: [] }),
      'session.signIn': () => ok(chooseAccount),
      'session.chooseAccount': () => ({ ok: false, error: { kind: 'invalid_input', message: 'This sign-in has expired. Enter the address and token again.' } }),
    });
    const user = userEvent.setup();
    render(<SignIn bridge={fake.bridge} />);
    await user.type(screen.getByLabelText('Service address'), 'https://svc.example');
    await user.type(screen.getByLabelText('Access token'), 'secret-token-123');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/expired/);
    expect(screen.getByLabelText('Access token')).toHaveProperty('value', '');
  });

  it('shows the service’s refusal and keeps the address', async () => {
    const fake = fakeBridge({ 'session.list': () => ok({ sessions: [] }), 'session.signIn': () => ({ ok: false, error: { kind: 'unauthorized', message: 'The service did not accept this access token.' } }) });
    const user = userEvent.setup();
    render(<SignIn bridge={fake.bridge} />);
    await user.type(screen.getByLabelText('Service address'), 'https://svc.example');
    await user.type(screen.getByLabelText('Access token'), 'bad');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain('did not accept');
    expect(screen.getByLabelText('Service address')).toHaveProperty('value', 'https://svc.example');
    expect(screen.getByLabelText('Access token')).toHaveProperty('value', '');
  });

  it('lists saved accounts and reopens one', async () => {
    const onSignedIn = vi.fn();
    const fake = fakeBridge({
      'session.list': () => ok({ sessions: [{ id: 's1', baseUrl: 'https://svc.example', accountId: 2, accountName: 'Globex', userName: 'Morgan', userEmail: 'morgan@acme.example', status: 'needs_token' }] }),
      'session.switch': () => ok({ status: 'expired', session, reason: 'token_needed' }),
    });
    const user = userEvent.setup();
    render(<SignIn bridge={fake.bridge} onSignedIn={onSignedIn} />);
    const saved = await screen.findByRole('region', { name: 'Saved accounts' });
    await user.click(saved.querySelector('button')!);
    expect(fake.callsTo('session.switch')).toEqual([{ sessionId: 's1' }]);
    expect(saved.textContent).toContain('needs your token');
    expect(onSignedIn).toHaveBeenCalled();
  });
});

describe('weak-storage consent', () => {
  it('asks only when the protection is weak and a token waits, and records the choice', async () => {
    const fake = fakeBridge({
      'session.tokenStorage': () => ok({ protection: 'weak', choice: 'ask', unsaved: 1 }),
      'session.setTokenStorage': (input) => ok({ protection: 'weak', choice: (input as { choice: string }).choice, unsaved: 0 }),
    });
    const user = userEvent.setup();
    render(<TokenStorageConsent bridge={fake.bridge} />);
    const dialog = await screen.findByRole('alertdialog', { name: 'Keep your access token on this computer?' });
    expect(dialog.textContent).toMatch(/weak protection/);
    const first = screen.getByRole('button', { name: 'Enter it each launch' });
    await waitFor(() => expect(document.activeElement).toBe(first));
    await user.click(screen.getByRole('button', { name: 'Keep it with weak protection' }));
    expect(fake.callsTo('session.setTokenStorage')).toEqual([{ choice: 'store_weak' }]);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it.each([
    { protection: 'os', choice: 'not_needed', unsaved: 0 },
    { protection: 'memory', choice: 'not_needed', unsaved: 0 },
    { protection: 'weak', choice: 'each_launch', unsaved: 0 },
    { protection: 'weak', choice: 'ask', unsaved: 0 },
  ])('stays hidden for %o', async (storage) => {
    const fake = fakeBridge({ 'session.tokenStorage': () => ok(storage) });
    render(<TokenStorageConsent bridge={fake.bridge} />);
    await waitFor(() => expect(fake.callsTo('session.tokenStorage')).toHaveLength(1));
    await act(async () => undefined);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});

describe('re-sign-in dialog', () => {
  it('focuses the token field and signs in again to the same session', async () => {
    const fake = fakeBridge({ 'session.signIn': () => ok({ status: 'signed_in', session }) });
    const user = userEvent.setup();
    render(<ReauthPrompt bridge={fake.bridge} session={session} reason="token_rejected" onSwitchAccount={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Your session expired' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.textContent).toContain('Nothing you queued is lost');
    const field = screen.getByLabelText('Access token');
    expect(document.activeElement).toBe(field);
    await user.type(field, 'fresh-token-456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(fake.callsTo('session.signIn')).toEqual([{ baseUrl: session.baseUrl, accessToken: 'fresh-token-456', accountId: 2, sessionId: session.id }]);
    expect(field).toHaveProperty('value', '');
  });

  it('says why when the token is needed each launch', () => {
    const fake = fakeBridge({});
    render(<ReauthPrompt bridge={fake.bridge} session={session} reason="token_needed" onSwitchAccount={() => undefined} />);
    expect(screen.getByRole('dialog', { name: 'Enter your access token' }).textContent).toContain('each time the app starts');
  });
});

describe('signed-out caches', () => {
  it('deletes inbox:<id> with its data and tells main, leaving other sessions alone', async () => {
    const gone = dbForSession('svc#u1#a1');
    await gone.cursors.put({ conversationId: 1, oldestId: 1, newestId: 2, hasOlder: false, gaps: [] });
    const kept = dbForSession('svc#u2#a1');
    await kept.cursors.put({ conversationId: 9, oldestId: 1, newestId: 2, hasOlder: false, gaps: [] });
    const fake = fakeBridge({ 'session.cacheDeleted': () => ok({ sessionIds: [] }) });
    expect(await Dexie.exists('inbox:svc#u1#a1')).toBe(true);
    expect(await purgeCaches(fake.bridge, ['svc#u1#a1'])).toEqual(['svc#u1#a1']);
    expect(await Dexie.exists('inbox:svc#u1#a1')).toBe(false);
    expect(await Dexie.exists('inbox:svc#u2#a1')).toBe(true);
    expect(fake.callsTo('session.cacheDeleted')).toEqual([{ sessionId: 'svc#u1#a1' }]);
    // Signing in again to the same session later starts from an empty, working cache.
    expect(await dbForSession('svc#u1#a1').cursors.count()).toBe(0);
  });
});

describe('external links', () => {
  it('lets main open the link on the desktop, opens a tab in web mode, and opens nothing main refused', async () => {
    const tabs: string[] = [];
    const openTab = (u: string) => void tabs.push(u);
    const desktop = fakeBridge({ 'shell.openExternal': () => ok({ opened: true, url: 'https://example.com/' }) });
    expect(await openExternalLink(desktop.bridge, 'https://example.com', openTab)).toBe('opened_by_os');
    // The tab opens main's validated, re-serialised address, not the raw string the page had.
    const web = fakeBridge({ 'shell.openExternal': () => ok({ opened: false, url: 'https://example.com/' }) });
    expect(await openExternalLink(web.bridge, 'https://EXAMPLE.com', openTab)).toBe('opened_in_tab');
    const refused = fakeBridge({ 'shell.openExternal': () => ({ ok: false, error: { kind: 'invalid_input', message: 'no' } }) });
    expect(await openExternalLink(refused.bridge, 'javascript:alert(1)', openTab)).toBe('refused');
    expect(tabs).toEqual(['https://example.com/']);
  });
});
