// Presence as Chatwoot's OnlineStatusTracker keeps it (chatwoot-compat §4.3 `presence.update`):
// each RoomChannel subscribe and `update_presence` marks its user or contact present in the
// account for PRESENCE_DURATION; a report lists the users present (or not following their
// connection, auto_offline off) with their chosen availability, and, for agents, the contacts
// present. Kept in memory: a restart forgets who was present, as presence lapses in 20 s anyway.
//
// Beyond Chatwoot (the `presence` extension, server/README "Extensions"): an agent's connection may
// say which conversation it has open (`update_presence` with `viewing: <display id | null>`, over
// socket.io or ActionCable). Connections that said so get `viewing` in their reports (`{"<display
// id>": [user ids]}`, only conversations of inboxes they may see), and a report again whenever
// someone's open conversation changes. A connection that never sends `viewing` sees exactly
// Chatwoot's reports. What a connection views lapses 40 s after its last refresh, or when it closes.
import type { Db } from '../db/open';
import { memberAvailabilities, visibleConversationIds } from '../store/live-subscribers';
import type { Identity } from './identity';

/** Chatwoot's PRESENCE_DURATION default; its clients refresh every 20 s. */
const PRESENCE_DURATION_MS = 20_000;
/**
 * What a connection views outlives one missed refresh: clients refresh every PRESENCE_DURATION, so
 * a refresh a few milliseconds late would otherwise drop "also viewing" from every colleague's
 * screen until the next one. A closed connection or `viewing: null` still ends it at once.
 */
const VIEWING_DURATION_MS = 2 * PRESENCE_DURATION_MS;

const keyOf = (who: Identity) => (who.kind === 'agent' ? `user:${who.userId}` : `contact:${who.contactId}`);

interface Viewing {
  accountId: number;
  userId: number;
  conversationId: number;
  at: number;
}

export class Presence {
  /** account id → `user:<id>` / `contact:<id>` → when last seen (service clock). */
  private readonly seen = new Map<number, Map<string, number>>();
  /** connection (a socket id, a cable subscription) → the conversation its agent has open. */
  private readonly viewing = new Map<string, Viewing>();

  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
  ) {}

  touch(who: Identity) {
    let account = this.seen.get(who.accountId);
    if (!account) this.seen.set(who.accountId, (account = new Map()));
    account.set(keyOf(who), this.clock());
  }

  /** Who is present in the account now; lapsed entries are dropped on the way. */
  private present(accountId: number): Set<string> {
    const account = this.seen.get(accountId);
    const since = this.clock() - PRESENCE_DURATION_MS;
    for (const [key, at] of account ?? []) if (at < since) account!.delete(key);
    if (account?.size === 0) this.seen.delete(accountId);
    return new Set(account?.keys());
  }

  /**
   * What an agent's connection has open (`null`: none); answers whether that changed anything
   * others were told. Contacts have nothing to report here.
   */
  view(connection: string, who: Identity, conversationId: number | null): boolean {
    if (who.kind !== 'agent') return false;
    const before = this.viewing.get(connection);
    if (conversationId === null) {
      this.viewing.delete(connection);
      return before !== undefined;
    }
    this.viewing.set(connection, { accountId: who.accountId, userId: who.userId, conversationId, at: this.clock() });
    return before?.conversationId !== conversationId;
  }

  /** The connection closed: its open conversation goes (answers whether it had one). */
  forget(connection: string): { accountId: number } | undefined {
    const before = this.viewing.get(connection);
    this.viewing.delete(connection);
    return before ? { accountId: before.accountId } : undefined;
  }

  /** The `presence.update` data for this subscriber: `contacts` only for agents, as Chatwoot; `viewing` only for a connection that asked. */
  report(who: Identity, withViewing = false): Record<string, unknown> {
    const present = this.present(who.accountId);
    const users: Record<string, string> = {};
    for (const m of memberAvailabilities(this.db, who.accountId)) {
      if (present.has(`user:${m.user_id}`) || m.auto_offline === 0) users[String(m.user_id)] = m.availability;
    }
    if (who.kind === 'contact') return { account_id: who.accountId, users };
    const contacts: Record<string, string> = {};
    for (const key of present) if (key.startsWith('contact:')) contacts[key.slice('contact:'.length)] = 'online';
    return { account_id: who.accountId, users, contacts, ...(withViewing ? { viewing: this.viewers(who) } : {}) };
  }

  /** Display id → the agents who have it open, of the conversations this agent may see. */
  private viewers(who: Extract<Identity, { kind: 'agent' }>): Record<string, number[]> {
    const since = this.clock() - VIEWING_DURATION_MS;
    const byConversation = new Map<number, Set<number>>();
    for (const [connection, v] of this.viewing) {
      if (v.at < since) {
        this.viewing.delete(connection);
        continue;
      }
      if (v.accountId !== who.accountId) continue;
      const set = byConversation.get(v.conversationId) ?? new Set<number>();
      set.add(v.userId);
      byConversation.set(v.conversationId, set);
    }
    const visible = new Set(visibleConversationIds(this.db, who.accountId, who.userId, [...byConversation.keys()]));
    return Object.fromEntries([...byConversation].filter(([id]) => visible.has(id)).map(([id, users]) => [String(id), [...users].sort((a, b) => a - b)]));
  }
}

/** `viewing` as a client sent it: a display id, `null` for none; anything else means "not said". */
export function viewingOf(data: unknown): number | null | undefined {
  if (typeof data !== 'object' || data === null || !('viewing' in data)) return undefined;
  const v = (data as { viewing: unknown }).viewing;
  if (v === null) return null;
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : undefined;
}
