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
import * as contact from '../actions/contact-actions';
import type { ContactFieldChange } from '../model/contact-intent';
import type { Person } from '../model/intent';
import type { BackoffPolicy } from '../actions/retry-policy';
import { defaultBackoff } from '../actions/retry-policy';
import { InFlightActions } from '../actions/in-flight';
import { createFirstRowsGate } from './first-rows-gate';
import { ConversationReadAhead } from '../conversation/read-ahead';
import { ServiceReachability } from '../conversation/reachability';
import { OutboxSender } from '../actions/sender';
import { OutboxSummary } from '../db/outbox-summary';
import { InboxDb } from '../db/schema';
import { createLiveHandler } from '../live/live-handler';
import { forgetRendered } from '../markdown/rendered-cache';
import { createNotificationCenter } from '../notifications/notification-center';
import type { NotificationCenterDeps } from '../notifications/notification-center';
import type { NotifySettings } from '../notifications/settings';
import { callOrThrow } from '../platform/call';
import { createTypingReporter } from '../composer/typing';
import { LocalSearchIndex } from '../search/local-index';
import type { ServiceFeatures } from '../../../shared/bridge/calls/session';
import { onReconnect } from '../platform/connection';
import { pageInput } from '../platform/input-activity';
import type { CatchUpResult } from '../sync/catch-up';
import { advanceWatermark, catchUp } from '../sync/catch-up';
import { directoryFollower } from '../sync/directory';
import { HistoryFollower } from '../sync/history';
import { prefetchQueues } from '../sync/prefetch';
import { refreshConversation } from '../sync/refresh';

/** What the client asks of the screen it runs under (UI state stays in React and zustand). */
export interface ClientView {
  /** A sentence for the agent (an action the service refused, a conflict). */
  tell(text: string): void;
  openConversationId(): number | undefined;
  /** Whether the window has the agent's attention (focused and visible). */
  focused(): boolean;
  /** A notification to show (OS or browser, or an in-app toast), the sound, one to take away. */
  showNotification: NotificationCenterDeps['show'];
  playSound: NotificationCenterDeps['sound'];
  closeNotification(tag: string): void;
  /** Settings for a session that has none of its own yet. */
  notificationDefaults?(): Partial<NotifySettings>;
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
  /**
   * The list's first rows were read before the inbox rendered (a cold open with this session's
   * cache): reads they do not need wait until they are on screen (client/first-rows-gate.ts).
   */
  firstRowsReadEarly?: boolean;
  backoff?: BackoffPolicy;
  now?: () => number;
}

/** How often the watermark follows a live socket that stayed up. */
const WATERMARK_TICK_MS = 60_000;

/** The session's cache database: one per session, deleted at sign-out (platform/cache-purge.ts). */
export const sessionDbName = (sessionId: string) => `inbox:${sessionId}`;

export function createInboxClient(opts: InboxClientOptions) {
  const { bridge, session, view } = opts;
  const now = opts.now ?? Date.now;
  const db = opts.db ?? new InboxDb(sessionDbName(session.id));
  const firstRows = createFirstRowsGate(Boolean(opts.firstRowsReadEarly));
  const me: Person = { id: session.user.id, name: session.user.name };
  const history = new HistoryFollower(db, (conversationId) => async (q) => (await callOrThrow(bridge, 'messages.list', { conversationId, ...q })).payload);
  // Conversations may have lost a deleted team without an event: the whole cache catches up.
  const directory = directoryFollower(bridge, db, () => void syncNow());
  const directoryStale = () => void directory.refresh().catch(() => undefined);
  // The outbox kept in memory: the sender's look at its queue, the header's word and the tab counts.
  // Read once the first rows are on screen, like the live queries it stands in for.
  const outboxSummary = new OutboxSummary(db, (run) => firstRows.whenOpen(run));
  const outbox = new OutboxSender({ db, bridge, notify: (text) => view.tell(text), backoff: opts.backoff ?? defaultBackoff, now, directoryStale, summary: outboxSummary });
  /** The one conversation read: stored, and its revision handed to the sender for the next write. */
  const refresh = async (conversationId: number) => {
    const read = await refreshConversation(bridge, db, conversationId, now);
    outbox.remember(conversationId, read);
    return read;
  };
  const inFlight = new InFlightActions();
  const context: ActionContext = { db, me, kick: () => outbox.kick(), inFlight };
  // Fire and forget: typing is transient (composer/typing.ts).
  const typing = createTypingReporter({
    send: (conversationId, on, isPrivate) => void bridge.call('conversations.typing', { conversationId, on, private: isPrivate }),
    now,
    timer: (ms, fire) => {
      const t = setTimeout(fire, ms);
      return () => clearTimeout(t);
    },
  });
  const search = new LocalSearchIndex(db, pageInput);
  const notifications = createNotificationCenter({
    db,
    me,
    now,
    attention: () => ({ focused: view.focused(), openConversationId: view.openConversationId() }),
    show: (effect) => view.showNotification(effect),
    sound: (sound) => view.playSound(sound),
    close: (tag) => view.closeNotification(tag),
    defaults: () => view.notificationDefaults?.() ?? {},
  });
  const live = createLiveHandler({
    db,
    history,
    refresh,
    accountId: session.accountId,
    meId: me.id,
    openConversationId: () => view.openConversationId(),
    notifications,
    conversationsChanged: () => view.conversationsChanged(),
    directoryChanged: directoryStale,
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
    /** Changes to a contact: its own outbox lane (actions/contact-actions.ts). */
    contacts: {
      edit: (contactId: number, change: ContactFieldChange) => contact.editContact(context, contactId, change),
      removeAttributes: (contactId: number, keys: readonly string[]) => contact.removeContactAttributes(context, contactId, keys),
      changeLabels: (contactId: number, change: { add?: readonly string[]; remove?: readonly string[] }) => contact.changeContactLabels(context, contactId, change),
      addNote: (contactId: number, content: string) => contact.addContactNote(context, contactId, content),
      deleteNote: (contactId: number, noteId: number) => contact.deleteContactNote(context, contactId, noteId),
      retry: (seq: number) => contact.retryContactChange(context, seq),
      discard: (seq: number) => contact.discardContactChange(db, seq),
    },
  };

  const features = async (): Promise<ServiceFeatures> => {
    const r = await bridge.call('session.features', {});
    return r.ok ? r.value : { idempotencyKey: false, conversationEtag: false, changesFeed: false, presence: false };
  };

  /**
   * Catch-up, one at a time: asked for while one runs, it runs once more after (what arrived
   * meanwhile may have been missed too). Then what is on screen is asked again (also when the
   * service could not be reached: the screen says so), and the queues' conversations are kept
   * readable offline in idle time.
   */
  let catching: Promise<CatchUpResult | undefined> | undefined;
  let again = false;
  let stopped = true;
  async function catchUpOnce(): Promise<CatchUpResult | undefined> {
    let result: CatchUpResult | undefined;
    try {
      result = await catchUp({ bridge, db, features, now });
    } catch {
      // Unreachable: the next reconnect or catch-up signal tries again; what was stored stays.
    }
    view.revalidateScreen();
    // What came while the app could not hear it: at most one summary, never a flood.
    if (result?.arrived.length) void notifications.missed(result.arrived);
    if (result && !stopped) void prefetchQueues({ bridge, db, history, meId: me.id, stopped: () => stopped });
    return result;
  }
  function syncNow(): Promise<CatchUpResult | undefined> {
    if (catching) {
      again = true;
      return catching;
    }
    catching = catchUpOnce().finally(() => {
      catching = undefined;
      if (again && !stopped) {
        again = false;
        void syncNow();
      }
    });
    return catching;
  }

  let owners = 0;
  let closeTimer: ReturnType<typeof setTimeout> | undefined;
  let holders = 0;
  let stopTimer: ReturnType<typeof setTimeout> | undefined;
  let running: (() => void) | undefined;

  function start(): () => void {
    stopped = false;
    const stopTicking = notifications.start();
    // While the socket stays up it delivers everything: the next catch-up may start from later.
    let liveSince: number | undefined;
    let serviceWasDown = false;
    const tick = setInterval(() => {
      if (liveSince !== undefined && now() - liveSince > WATERMARK_TICK_MS) void advanceWatermark(db, now() - WATERMARK_TICK_MS);
    }, WATERMARK_TICK_MS);
    const offs = [
      bridge.on('live.event', (event) => void live.handle(event)),
      // Events may have been missed (first connection, a reconnect the service could not replay, long offline).
      bridge.on('live.catchUp', () => void syncNow()),
      // "Mark read" on an OS notification (macOS): through the outbox, like the agent's own.
      bridge.on('app.notificationAction', ({ conversationId }) => void actions.markRead([conversationId]).catch(() => undefined)),
      bridge.on('live.status', (s) => {
        liveSince = s.state === 'connected' ? (liveSince ?? now()) : undefined;
        // The service can be reached again after it could not: what waited for it goes now, not at
        // the end of its backoff. (Not on the first connection: nothing has waited for it then.)
        if (s.state === 'offline') serviceWasDown = true;
        else if (s.state === 'connected' && serviceWasDown) {
          serviceWasDown = false;
          void outbox.retryNow();
        }
      }),
      // Web mode's host came back (restarted, or the page lost it): what it queued goes, what was missed comes.
      onReconnect(bridge, () => {
        liveSince = undefined;
        void outbox.retryNow();
        void syncNow();
      }),
    ];
    // The outbox's first pass and the catch-up read the cache and ask the service: not ahead of the
    // frame that first shows the list (client/first-rows-gate.ts).
    const cancelFirstWork = firstRows.whenOpen(() => {
      void outbox.start();
      void syncNow();
    });
    return () => {
      stopped = true;
      cancelFirstWork();
      clearInterval(tick);
      stopTicking();
      for (const off of offs) off();
      outbox.stop();
      search.stop();
    };
  }

  function close(): void {
    clearTimeout(stopTimer);
    running?.();
    running = undefined;
    holders = 0;
    firstRows.stop();
    forgetRendered();
    db.close({ disableAutoOpen: true });
  }

  return {
    bridge,
    session,
    db,
    me,
    actions,
    /** Actions shown before their write commits (the list applies them in memory). */
    inFlight,
    outbox,
    /** The outbox's entries and their conversations' rows, in memory (the header's word, the tab counts). */
    outboxSummary,
    history,
    live,
    notifications,
    search,
    /**
     * `refresh` asks the service; `readAhead` starts the cache's read of one being opened
     * (conversation/read-ahead.ts); `reachability`: whether the last read of one reached the service.
     */
    conversations: { refresh, readAhead: new ConversationReadAhead(db), reachability: new ServiceReachability() },
    /** The account's directory, read again now (joins one under way). */
    directory,
    /** Open once the list's first rows are on screen: reads they do not need wait for it. */
    firstRows,
    /** The agent's own typing, told to the service (throttled). */
    typing,
    /** Catch-up of the whole cache now (joins one under way). */
    syncNow,
    /**
     * The session is over (signed out, switched away): its work stops and its database closes for
     * good, so deleting the cache (platform/cache-purge.ts) is not held up by this connection, and
     * nothing still running can open (and so recreate) it.
     */
    close,
    /**
     * Keeps the database open until the returned release is called (the provider that made the
     * client, while mounted); a tick after the last release it closes, so a remount keeps it.
     */
    keepOpen(): () => void {
      clearTimeout(closeTimer);
      owners++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        owners--;
        if (owners === 0) closeTimer = setTimeout(() => owners === 0 && close(), 0);
      };
    },
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
