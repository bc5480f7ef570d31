// One object per signed-in session (Replicache's "one client per session"): it owns the session's
// cache (one IndexedDB database), the outbox sender, live-event application, catch-up, idle
// prefetch, the local search index and the history followers, and hands React typed queries and
// mutators through context (client/context.tsx). Nothing here lives in a module-level map, so two
// sessions (or two tests) never share state, and stopping a client stops everything it started.
//
// Creating a client is cheap and starts nothing. `retain()` starts the background work (sender,
// live events, catch-up, prefetch, search index) while at least one holder keeps it; the inbox
// screen holds it while mounted. Releases are counted and the stop waits a tick, so React's
// development double mount reuses the running work instead of starting a second copy beside it.
import type { Bridge } from '../../../shared/bridge/contract';
import type { SessionInfo } from '../../../shared/bridge/calls/session';
import type { ActionContext } from '../actions/agent-actions';
import * as agent from '../actions/agent-actions';
import type { Person } from '../model/intent';
import type { BackoffPolicy } from '../actions/retry-policy';
import { defaultBackoff } from '../actions/retry-policy';
import { OutboxSender } from '../actions/sender';
import { InboxDb } from '../db/schema';
import { createLiveHandler } from '../live/live-handler';
import type { LiveHandlerDeps } from '../live/live-handler';
import { callOrThrow } from '../platform/call';
import { LocalSearchIndex } from '../search/local-index';
import { HistoryFollower } from '../sync/history';
import { refreshConversation } from '../sync/refresh';

/** What the client asks of the screen it runs under (UI state stays in React and zustand). */
export interface ClientView {
  /** A sentence for the agent (an action the service refused, a conflict). */
  tell(text: string): void;
  openConversationId(): number | undefined;
  /** Whether the window has the agent's attention, and whether they want notifications. */
  attention(): { focused: boolean; enabled: boolean };
  notify: LiveHandlerDeps['notify'];
  /** A live event changed a conversation (the tab counts may have moved). */
  conversationsChanged(): void;
  /** Events may have been missed: what is on screen should be asked again. */
  revalidateScreen(): void;
}

export interface InboxClientOptions {
  bridge: Bridge;
  session: SessionInfo;
  view: ClientView;
  /** Tests hand in their own database; the app opens `inbox:<session id>`. */
  db?: InboxDb;
  backoff?: BackoffPolicy;
  now?: () => number;
}

/** The session's cache database: one per session, deleted at sign-out (platform/cache-purge.ts). */
export const sessionDbName = (sessionId: string) => `inbox:${sessionId}`;

export function createInboxClient(opts: InboxClientOptions) {
  const { bridge, session, view } = opts;
  const now = opts.now ?? Date.now;
  const db = opts.db ?? new InboxDb(sessionDbName(session.id));
  const me: Person = { id: session.user.id, name: session.user.name };
  const history = new HistoryFollower(db, (conversationId) => async (q) => (await callOrThrow(bridge, 'messages.list', { conversationId, ...q })).payload);
  const outbox = new OutboxSender({ db, bridge, notify: (text) => view.tell(text), backoff: opts.backoff ?? defaultBackoff, now });
  /** The one conversation read: stored, and its revision handed to the sender for the next write. */
  const refresh = async (conversationId: number) => {
    const read = await refreshConversation(bridge, db, conversationId, now);
    outbox.remember(conversationId, read);
    return read;
  };
  const context: ActionContext = { db, me, kick: () => outbox.kick() };
  const search = new LocalSearchIndex(db);
  const live = createLiveHandler({
    db,
    history,
    refresh,
    accountId: session.accountId,
    meId: me.id,
    openConversationId: () => view.openConversationId(),
    notifyFacts: async () => {
      const inboxIds = (await db.inboxes.toCollection().primaryKeys()) as number[];
      return { ...view.attention(), ...(inboxIds.length ? { inboxIds: new Set(inboxIds) } : {}) };
    },
    notify: (content) => view.notify(content),
    conversationsChanged: () => view.conversationsChanged(),
  });

  /** The agent's actions, bound to this session's cache and sender. */
  const actions = {
    context,
    setStatus: (ids: readonly number[], status: Parameters<typeof agent.setStatus>[2], snoozedUntil?: number | null) => agent.setStatus(context, ids, status, snoozedUntil),
    setPriority: (ids: readonly number[], priority: Parameters<typeof agent.setPriority>[2]) => agent.setPriority(context, ids, priority),
    assign: (ids: readonly number[], assignee: Person | null) => agent.assign(context, ids, assignee),
    assignTeam: (ids: readonly number[], team: Person | null) => agent.assignTeam(context, ids, team),
    changeLabels: (ids: readonly number[], change: Parameters<typeof agent.changeLabels>[2]) => agent.changeLabels(context, ids, change),
    markRead: (ids: readonly number[]) => agent.markRead(context, ids),
    markUnread: (ids: readonly number[]) => agent.markUnread(context, ids),
    sendMessage: (conversationId: number, content: string, isPrivate: boolean) => agent.sendMessage(context, conversationId, content, isPrivate),
    retryMessage: (seq: number) => agent.retryMessage(context, seq),
    discardMessage: (seq: number) => agent.discardMessage(db, seq),
  };

  let holders = 0;
  let stopTimer: ReturnType<typeof setTimeout> | undefined;
  let running: (() => void) | undefined;

  function start(): () => void {
    void outbox.start();
    const offs = [
      bridge.on('live.event', (event) => void live.handle(event)),
      bridge.on('live.catchUp', () => view.revalidateScreen()),
    ];
    return () => {
      for (const off of offs) off();
      outbox.stop();
      search.stop();
    };
  }

  return {
    bridge,
    session,
    db,
    me,
    actions,
    outbox,
    history,
    live,
    search,
    conversations: { refresh },
    /** Keeps the background work running until the returned release is called. */
    retain(): () => void {
      clearTimeout(stopTimer);
      holders++;
      running ??= start();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holders--;
        if (holders > 0) return;
        stopTimer = setTimeout(() => {
          if (holders > 0 || !running) return;
          running();
          running = undefined;
        }, 0);
      };
    },
  };
}
export type InboxClient = ReturnType<typeof createInboxClient>;
