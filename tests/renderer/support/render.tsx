// Renders renderer components the way the app does: TanStack Query (no retries, like main.tsx),
// a session context with its own fresh IndexedDB (a unique session id per render).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { Bridge } from '../../../shared/bridge/contract';
import type { SessionInfo } from '../../../shared/bridge/calls/session';
import { createInboxClient } from '../../../renderer/src/client/inbox-client';
import type { InboxClient } from '../../../renderer/src/client/inbox-client';
import { clientView } from '../../../renderer/src/client/view';
import { clientSettings, SessionProvider } from '../../../renderer/src/platform/session';
import { uniqueDbName } from '../fixtures';

export const testSession = (over: Partial<SessionInfo> = {}): SessionInfo => ({
  id: uniqueDbName('session'),
  baseUrl: 'http://service.test',
  accountId: 1,
  user: { id: 2, name: 'Sam Patel', email: 'sam@acme.example', role: 'agent' },
  accounts: [{ id: 1, name: 'Acme Support', role: 'agent' }],
  ...over,
});

/**
 * `inbox` is the session's client runtime (made here, as the provider would, so the test can reach
 * it); its background work runs only where a component holds it (`useClientRunning`).
 */
export function renderWithSession(ui: ReactNode, opts: { bridge: Bridge; session?: SessionInfo; client?: QueryClient }) {
  const session = opts.session ?? testSession();
  const client = opts.client ?? new QueryClient({ defaultOptions: { queries: { retry: false, networkMode: 'always', gcTime: Infinity }, mutations: { networkMode: 'always' } } });
  const inbox: InboxClient = createInboxClient({ bridge: opts.bridge, session, view: clientView(opts.bridge, client), ...(clientSettings.backoff ? { backoff: clientSettings.backoff } : {}) });
  const wrap = (node: ReactNode) => (
    <QueryClientProvider client={client}>
      <SessionProvider bridge={opts.bridge} session={session} expired={false} client={inbox}>
        {node}
      </SessionProvider>
    </QueryClientProvider>
  );
  const result = render(wrap(ui));
  return { ...result, db: inbox.db, inbox, session, client, rerenderWith: (node: ReactNode) => result.rerender(wrap(node)) };
}

/** A bridge whose calls never answer: what the renderer shows from the cache alone. */
export const silentBridge: Bridge = { call: () => new Promise(() => undefined), on: () => () => undefined } as unknown as Bridge;

/** A bridge where every call fails as if the service were unreachable. */
export const offlineBridge: Bridge = {
  call: async () => ({ ok: false, error: { kind: 'network', message: 'The service could not be reached.' } }),
  on: () => () => undefined,
} as unknown as Bridge;
