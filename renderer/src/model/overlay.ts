// What the cache shows is the service's last answer with the agent's queued actions on top. Every
// write of a service record goes through here, so an answer that predates a queued action (a list
// page fetched while "resolve" waits to be sent) cannot undo it on screen.
import type { Conversation } from '../../../shared/api/records';
import { toCachedConversation } from './normalize';
import type { CachedConversation, OutboxEntry } from './rows';
import { applyIntent } from './intent';

/** Entries on their way (a failed message or a conflict waits for the agent instead). */
export const isPending = (e: Pick<OutboxEntry, 'state'>) => e.state === 'queued' || e.state === 'sending';

/**
 * When an answer left the service: the time its request went out (epoch ms, client clock), or
 * `push` for a live event, whose departure is unknown.
 */
export type AnswerTime = number | 'push';

/**
 * Whether the entry is re-applied over an answer: while it is on its way (the answer cannot show
 * it yet), and once confirmed only while unproven: over an answer asked for before the
 * confirmation (a list page fetched just before "resolve" landed must not bring the conversation
 * back), or over a push until an answer asked for after the confirmation has been stored. From
 * then on the service's own state shows, with whatever it did itself (a reopen self-assigns, a
 * new team drops the assignee) and whatever another agent changed later.
 */
export function reappliedOver(e: OutboxEntry, at: AnswerTime): boolean {
  if (isPending(e)) return true;
  if (e.state !== 'confirmed') return false;
  if (at === 'push') return e.provenAt === undefined;
  // Asked for in the same millisecond as the confirmation came: after it (the read-back follows it).
  return (e.confirmedAt ?? 0) > at;
}

/**
 * Whether `incoming` is older than what the cache holds: the service's own `updated_at` says so
 * (both must carry it). An older answer (a list page that crossed a fresher read on the way, a
 * push delayed behind a later change) never replaces a newer one.
 */
export const olderThan = (incoming: Conversation, held: Conversation | undefined) =>
  held?.updated_at !== undefined && incoming.updated_at !== undefined && incoming.updated_at < held.updated_at;

/** A service record as the cache should hold it: with `pending` re-applied in order. */
export function withPending(record: Conversation, pending: readonly OutboxEntry[] | undefined): { row: CachedConversation; record: Conversation } {
  let cached = { row: toCachedConversation(record), record };
  for (const e of pending ?? []) {
    const next = applyIntent(cached, e.payload, e.createdAt);
    cached = { row: next.row!, record: next.record! };
  }
  return cached;
}

/**
 * A conversation's copy of its contact's name and email (list row, record) with the agent's edits
 * of that contact still on their way on top: a conversation read while "name = Dana Q." waits to be
 * sent must not show the old name. `entries`: the contact lane's entries to re-apply, in order.
 */
export function withContactEdits(cached: { row: CachedConversation; record: Conversation }, entries: readonly OutboxEntry[] | undefined): { row: CachedConversation; record: Conversation } {
  let name: string | undefined;
  let email: string | null | undefined;
  for (const e of entries ?? []) {
    if (e.payload.kind !== 'contact' || e.payload.op !== 'fields') continue;
    if (e.payload.fields.name !== undefined) name = e.payload.fields.name;
    if (e.payload.fields.email !== undefined) email = e.payload.fields.email || null;
  }
  if (name === undefined && email === undefined) return cached;
  const sender = cached.record.meta.sender;
  return {
    row: { ...cached.row, ...(name === undefined ? {} : { contactName: name || 'Unknown contact' }), ...(email === undefined ? {} : { contactEmail: email ?? '' }) },
    record: sender ? { ...cached.record, meta: { ...cached.record.meta, sender: { ...sender, ...(name === undefined ? {} : { name }), ...(email === undefined ? {} : { email }) } } } : cached.record,
  };
}
