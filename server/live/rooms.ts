// Who receives a live event (chatwoot-compat §4.2), as socket.io rooms:
//   agent:<account>:<user>  every socket of that user connected for that account
//   user:<user>             every socket of that user (to leave out a typing agent)
//   account:<account>       every agent socket of the account (contact.* events)
//   ci:<contact inbox>      every socket of that contact inbox (a widget visitor or API client)
//   contact:<contact>       every contact-side socket of that contact (to leave out a typing contact)
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { ConversationRow } from '../store/conversations';

export const rooms = {
  agent: (accountId: number, userId: number) => `agent:${accountId}:${userId}`,
  user: (userId: number) => `user:${userId}`,
  account: (accountId: number) => `account:${accountId}`,
  contactInbox: (id: number) => `ci:${id}`,
  contact: (contactId: number) => `contact:${contactId}`,
};

/** Members of the conversation's inbox plus every administrator of the account. */
export function agentRooms(db: Db, accountId: number, inboxId: number): string[] {
  const rows = stmt(
    db,
    `SELECT au.user_id FROM account_users au
     WHERE au.account_id = ? AND (au.role = 'administrator' OR EXISTS (SELECT 1 FROM inbox_members m WHERE m.inbox_id = ? AND m.user_id = au.user_id))`,
  ).all(accountId, inboxId) as { user_id: number }[];
  return rows.map((r) => rooms.agent(accountId, r.user_id));
}

/**
 * The conversation's own contact inbox, plus every verified contact inbox of its contact (a verified
 * session sees all of the contact's conversations, so it hears about them too).
 */
export function contactRooms(db: Db, c: ConversationRow): string[] {
  const ids = new Set<number>();
  if (c.contact_inbox_id != null) ids.add(c.contact_inbox_id);
  for (const r of stmt(db, 'SELECT id FROM contact_inboxes WHERE contact_id = ? AND hmac_verified = 1').all(c.contact_id) as { id: number }[]) ids.add(r.id);
  return [...ids].map(rooms.contactInbox);
}
