// Presence as Chatwoot's OnlineStatusTracker keeps it (chatwoot-compat §4.3 `presence.update`):
// each RoomChannel subscribe and `update_presence` marks its user or contact present in the
// account for PRESENCE_DURATION; a report lists the users present (or not following their
// connection, auto_offline off) with their chosen availability, and, for agents, the contacts
// present. Kept in memory: a restart forgets who was present, as presence lapses in 20 s anyway.
import type { Db } from '../../db/open';
import { memberAvailabilities } from '../../store/live-subscribers';
import type { Identity } from '../identity';

/** Chatwoot's PRESENCE_DURATION default; its clients refresh every 20 s. */
const PRESENCE_DURATION_MS = 20_000;

const keyOf = (who: Identity) => (who.kind === 'agent' ? `user:${who.userId}` : `contact:${who.contactId}`);

export class Presence {
  /** account id → `user:<id>` / `contact:<id>` → when last seen (service clock). */
  private readonly seen = new Map<number, Map<string, number>>();

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

  /** The `presence.update` data for this subscriber: `contacts` only for agents, as Chatwoot. */
  report(who: Identity): Record<string, unknown> {
    const present = this.present(who.accountId);
    const users: Record<string, string> = {};
    for (const m of memberAvailabilities(this.db, who.accountId)) {
      if (present.has(`user:${m.user_id}`) || m.auto_offline === 0) users[String(m.user_id)] = m.availability;
    }
    if (who.kind === 'contact') return { account_id: who.accountId, users };
    const contacts: Record<string, string> = {};
    for (const key of present) if (key.startsWith('contact:')) contacts[key.slice('contact:'.length)] = 'online';
    return { account_id: who.accountId, users, contacts };
  }
}
