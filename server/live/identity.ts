// Who a live-update credential belongs to, for both transports (socket.io's handshake `auth`,
// ActionCable's RoomChannel identifier), and the rooms its connection listens to (rooms.ts).
// The same lookups refuse both: an unknown pubsub_token, an account the user is not in or a
// suspended account.
import type { Db } from '../db/open';
import { agentByPubsubToken, contactInboxByPubsubToken } from '../store/live-subscribers';
import { rooms } from './rooms';

export type Identity = { kind: 'agent'; userId: number; accountId: number } | { kind: 'contact'; contactInboxId: number; contactId: number; accountId: number };

const isToken = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 256;
const isBlank = (v: unknown) => v === undefined || v === null || v === '';

/** An agent: the user holding the token in that account; `user_id`, when given, must be theirs. */
function identifyAgent(db: Db, token: unknown, account: unknown, user?: unknown): Identity | undefined {
  if (!isToken(token)) return undefined;
  const accountId = Number(account);
  if (isBlank(account) || !Number.isSafeInteger(accountId) || accountId <= 0) return undefined;
  const row = agentByPubsubToken(db, token, accountId);
  if (!row) return undefined;
  if (!isBlank(user) && Number(user) !== row.id) return undefined;
  return { kind: 'agent', userId: row.id, accountId };
}

/** A contact: the contact inbox holding the token (a widget visitor or Client API caller). */
function identifyContact(db: Db, token: unknown): Identity | undefined {
  if (!isToken(token)) return undefined;
  const ci = contactInboxByPubsubToken(db, token);
  return ci ? { kind: 'contact', contactInboxId: ci.id, contactId: ci.contact_id, accountId: ci.account_id } : undefined;
}

/**
 * socket.io's handshake `auth` (server/README "Live updates"): an `account_id` makes it an agent's
 * (`user_id` optional), none a contact's.
 */
export function identifyHandshake(db: Db, auth: Record<string, unknown>): Identity | undefined {
  return isBlank(auth.account_id) ? identifyContact(db, auth.pubsub_token) : identifyAgent(db, auth.pubsub_token, auth.account_id, auth.user_id);
}

/**
 * A RoomChannel identifier, as Chatwoot's RoomChannel reads it (chatwoot-compat §4.1, §9.8): a
 * `user_id` makes it an agent's, which then needs its `account_id`; without one the token is a
 * contact inbox's.
 */
export function identifyRoomChannel(db: Db, params: Record<string, unknown>): Identity | undefined {
  return isBlank(params.user_id) ? identifyContact(db, params.pubsub_token) : identifyAgent(db, params.pubsub_token, params.account_id, params.user_id);
}

/** The rooms a connection of this identity listens to (rooms.ts says who each one reaches). */
export function roomsOf(who: Identity): string[] {
  return who.kind === 'agent'
    ? [rooms.agent(who.accountId, who.userId), rooms.user(who.userId), rooms.account(who.accountId)]
    : [rooms.contactInbox(who.contactInboxId), rooms.contact(who.contactId)];
}

/** The room only this subscriber's own connections share (its "own stream" for presence). */
export function ownRoomOf(who: Identity): string {
  return who.kind === 'agent' ? rooms.agent(who.accountId, who.userId) : rooms.contactInbox(who.contactInboxId);
}

export const sameIdentity = (a: Identity, b: Identity) =>
  a.kind === 'agent'
    ? b.kind === 'agent' && a.userId === b.userId && a.accountId === b.accountId
    : b.kind === 'contact' && a.contactInboxId === b.contactInboxId && a.contactId === b.contactId;
