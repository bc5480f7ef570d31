// What the cache shows is the service's last answer with the agent's queued actions on top. Every
// write of a service record goes through here, so an answer that predates a queued action (a list
// page fetched while "resolve" waits to be sent) cannot undo it on screen.
import type { Conversation } from '../../../shared/api/records';
import { toCachedConversation } from './normalize';
import type { CachedConversation, OutboxEntry } from './rows';
import { applyIntent } from './intent';

/** Entries the service has not confirmed yet (a failed, parked message no longer counts). */
export const isPending = (e: OutboxEntry) => e.state === 'queued' || e.state === 'sending';

/**
 * Whether an answer fetched at `fetchedAt` may predate the entry's effect: still pending, or
 * confirmed after that request went out (a list page asked for just before "resolve" landed must
 * not bring the conversation back). Re-applying a confirmed end state is harmless either way.
 */
export const aheadOf = (e: OutboxEntry, fetchedAt: number) => isPending(e) || (e.state === 'confirmed' && (e.confirmedAt ?? 0) >= fetchedAt);

/** A service record as the cache should hold it: with `pending` re-applied in order. */
export function withPending(record: Conversation, pending: readonly OutboxEntry[] | undefined): { row: CachedConversation; record: Conversation } {
  let cached = { row: toCachedConversation(record), record };
  for (const e of pending ?? []) {
    const next = applyIntent(cached, e.payload, e.createdAt);
    cached = { row: next.row!, record: next.record! };
  }
  return cached;
}
