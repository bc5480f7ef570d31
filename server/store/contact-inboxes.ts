// Contact inboxes: the link between a contact and an inbox, and the identity the Client and Widget
// families act as. Lookups here are the families' credential checks; visibility here is the
// States-and-transitions rule (verified contact inboxes see more).
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import { rows, splitRows, tupleRows } from '../db/rows';
import type { InboxRow } from './inboxes';
import type { ContactRow } from './contacts';
import type { ConversationRow } from './conversations';
import { createContactInbox } from './provision';
import type { WriteContext } from './writes';
import { commit, insertContact } from './writes';


const AVATAR_COLOURS = ['#FFCA99', '#C7EBFF', '#D4F5D4', '#F5D4EE', '#FFE9A8'];

/** The avatar placeholders every contact carries (spec: additional_attributes of Contact). */
export function avatarAttributes(seed: number) {
  return { avatar_background_color: AVATAR_COLOURS[seed % AVATAR_COLOURS.length]!, illustration_avatar_index: seed % 10 };
}

export interface ContactInboxRow {
  id: number;
  contact_id: number;
  inbox_id: number;
  source_id: string;
  hmac_verified: number;
  pubsub_token: string;
  created_at: number;
  updated_at: number;
}

export const contactInboxById = (db: Db, id: number) => rows<ContactInboxRow>(db, 'SELECT * FROM contact_inboxes WHERE id = ?').get(id);

export function contactInboxBySource(db: Db, inboxId: number, sourceId: string) {
  return stmt(db, 'SELECT * FROM contact_inboxes WHERE inbox_id = ? AND source_id = ?').get(inboxId, sourceId) as ContactInboxRow | undefined;
}

/**
 * The contact inbox of a source id in an inbox and its contact, in one statement (the Client
 * family's contact scope resolves both on every request): the contact inbox's 8 columns, then the contact's.
 */
export function contactInboxWithContact(db: Db, inboxId: number, sourceId: string): { contactInbox: ContactInboxRow; contact: ContactRow } | undefined {
  const found = splitRows<ContactInboxRow, ContactRow>(
    db,
    `SELECT ci.id, ci.contact_id, ci.inbox_id, ci.source_id, ci.hmac_verified, ci.pubsub_token, ci.created_at, ci.updated_at, c.*
     FROM contact_inboxes ci JOIN contacts c ON c.id = ci.contact_id WHERE ci.inbox_id = ? AND ci.source_id = ?`,
    8,
  ).get(inboxId, sourceId);
  return found && { contactInbox: found[0], contact: found[1] };
}

/** Where clientConversationScope's joined row splits: after the inbox's columns, the contact inbox's 8, the contact's. */
const scopeSplits = new WeakMap<Db, number[]>();
function clientScopeSplits(db: Db): number[] {
  let splits = scopeSplits.get(db);
  if (!splits) {
    const columns = (table: string) => db.prepare(`SELECT * FROM ${table} LIMIT 0`).columns().length;
    const inbox = columns('inboxes');
    scopeSplits.set(db, (splits = [inbox, inbox + 8, inbox + 8 + columns('contacts')]));
  }
  return splits;
}

/**
 * The Client API's conversation scope in one read: the `Channel::Api` inbox of `identifier`, its
 * contact inbox of `sourceId` with the contact, and that contact's conversation `displayId` of the
 * inbox's account, when every one of them exists and the contact inbox may see the conversation
 * (the same rows and rule as apiInboxByIdentifier, contactInboxWithContact and visibleConversation,
 * which answer the other cases one by one). Every Client message create reads these.
 */
export function clientConversationScope(db: Db, identifier: string, sourceId: string, displayId: number) {
  const found = tupleRows<[InboxRow, ContactInboxRow, ContactRow, ConversationRow]>(
    db,
    `SELECT i.*, ci.id, ci.contact_id, ci.inbox_id, ci.source_id, ci.hmac_verified, ci.pubsub_token, ci.created_at, ci.updated_at, c.*, v.*
     FROM inboxes i
     JOIN contact_inboxes ci ON ci.inbox_id = i.id AND ci.source_id = ?
     JOIN contacts c ON c.id = ci.contact_id
     JOIN conversations v ON v.account_id = i.account_id AND v.display_id = ?
     WHERE i.identifier = ? AND i.channel_type = 'Channel::Api'`,
    clientScopeSplits(db),
  ).get(sourceId, displayId, identifier);
  if (!found) return undefined;
  const [inbox, contactInbox, contact, conversation] = found;
  return visibleTo(db, contactInbox, 'client', conversation) && { inbox, contactInbox, contact, conversation };
}

/** The Client family's inbox: only a `Channel::Api` inbox answers to its public identifier. */
export function apiInboxByIdentifier(db: Db, identifier: string) {
  return rows<InboxRow>(db, "SELECT * FROM inboxes WHERE identifier = ? AND channel_type = 'Channel::Api'").get(identifier);
}

/** The Widget family's inbox: only a `Channel::WebWidget` inbox answers to its website token. */
export function widgetInboxByToken(db: Db, websiteToken: string) {
  return stmt(db, "SELECT * FROM inboxes WHERE website_token = ? AND channel_type = 'Channel::WebWidget'").get(websiteToken) as InboxRow | undefined;
}

export function accountIsSuspended(db: Db, accountId: number): boolean {
  const row = stmt(db, 'SELECT status FROM accounts WHERE id = ?').get(accountId) as { status: string } | undefined;
  return row?.status === 'suspended';
}

export function markVerified(db: Db, ci: ContactInboxRow, now: number): ContactInboxRow {
  if (ci.hmac_verified === 1) return ci;
  stmt(db, 'UPDATE contact_inboxes SET hmac_verified = 1, updated_at = ? WHERE id = ?').run(now, ci.id);
  return { ...ci, hmac_verified: 1, updated_at: now };
}

export interface NewContactInbox {
  inbox: InboxRow;
  sourceId: string;
  /** Reuse the account's contact with this identifier (only for verified callers), else create one. */
  reuseIdentifier?: string | null;
  contact: { name?: string | null; email?: string | null; phoneNumber?: string | null; identifier?: string | null; customAttributes?: Record<string, unknown>; contactType?: 'visitor' | 'lead' };
  verified: boolean;
}

/** Creates a contact inbox (and, unless an identified contact is reused, its contact) in one transaction. */
export function createContactWithInbox(ctx: WriteContext, n: NewContactInbox): { contact: ContactRow; contactInbox: ContactInboxRow } {
  return commit(ctx, (events) => {
    let contact =
      n.reuseIdentifier != null
        ? (stmt(ctx.db, 'SELECT * FROM contacts WHERE account_id = ? AND identifier = ? ORDER BY id LIMIT 1').get(n.inbox.account_id, n.reuseIdentifier) as ContactRow | undefined)
        : undefined;
    if (!contact) {
      const seed = Number((stmt(ctx.db, 'SELECT COALESCE(MAX(id), 0) + 1 AS next FROM contacts').get() as { next: number }).next);
      contact = insertContact(
        ctx,
        {
          accountId: n.inbox.account_id,
          name: n.contact.name ?? '',
          email: n.contact.email ?? null,
          phoneNumber: n.contact.phoneNumber ?? null,
          identifier: n.contact.identifier ?? null,
          customAttributes: n.contact.customAttributes ?? {},
          additionalAttributes: avatarAttributes(seed),
          contactType: n.contact.contactType ?? 'lead',
        },
        events,
      );
    }
    const { id } = createContactInbox(ctx.db, contact.id, n.inbox.id, ctx.now, n.sourceId);
    if (n.verified) stmt(ctx.db, 'UPDATE contact_inboxes SET hmac_verified = 1 WHERE id = ?').run(id);
    return { contact, contactInbox: contactInboxById(ctx.db, id)! };
  });
}

/**
 * The conversations a contact inbox may reach (spec: States and transitions). Unverified: only its
 * own. Verified: every conversation of its contact — in the Client family across all the contact's
 * contact inboxes; in the Widget family across the contact's verified contact inboxes of the same
 * inbox (other browsers or devices of the same identified user).
 */
export function visibleConversations(db: Db, ci: ContactInboxRow, family: 'client' | 'widget'): ConversationRow[] {
  if (ci.hmac_verified !== 1) {
    return stmt(db, 'SELECT * FROM conversations WHERE contact_inbox_id = ? ORDER BY id').all(ci.id) as ConversationRow[];
  }
  if (family === 'client') {
    return stmt(db, 'SELECT * FROM conversations WHERE contact_id = ? ORDER BY id').all(ci.contact_id) as ConversationRow[];
  }
  return stmt(
    db,
    `SELECT c.* FROM conversations c JOIN contact_inboxes x ON x.id = c.contact_inbox_id
     WHERE x.contact_id = ? AND x.inbox_id = ? AND (x.hmac_verified = 1 OR x.id = ?) ORDER BY c.id`,
  ).all(ci.contact_id, ci.inbox_id, ci.id) as ConversationRow[];
}

/** One conversation of the contact by display id, or undefined (the caller answers 404). */
export function visibleConversation(db: Db, ci: ContactInboxRow, family: 'client' | 'widget', accountId: number, displayId: number): ConversationRow | undefined {
  const c = rows<ConversationRow>(db, 'SELECT * FROM conversations WHERE account_id = ? AND display_id = ?').get(accountId, displayId);
  return c && visibleTo(db, ci, family, c);
}

/** `c` when the contact inbox may see it (its own, or its verified contact's), else undefined. */
function visibleTo(db: Db, ci: ContactInboxRow, family: 'client' | 'widget', c: ConversationRow): ConversationRow | undefined {
  if (c.contact_inbox_id === ci.id) return c;
  if (ci.hmac_verified !== 1 || c.contact_id !== ci.contact_id) return undefined;
  if (family === 'client') return c;
  const owner = c.contact_inbox_id == null ? undefined : contactInboxById(db, c.contact_inbox_id);
  return owner && owner.inbox_id === ci.inbox_id && owner.hmac_verified === 1 ? c : undefined;
}

/** A contact's contact inbox in an inbox (the first, if there are several). */
export const contactInboxOf = (db: Db, contactId: number, inboxId: number) =>
  stmt(db, 'SELECT * FROM contact_inboxes WHERE contact_id = ? AND inbox_id = ? ORDER BY id LIMIT 1').get(contactId, inboxId) as ContactInboxRow | undefined;

/** The inboxes a contact is in, with its source id in each, in the order it joined them. */
export const inboxesOfContact = (db: Db, contactId: number) =>
  stmt(db, 'SELECT ci.source_id, i.* FROM contact_inboxes ci JOIN inboxes i ON i.id = ci.inbox_id WHERE ci.contact_id = ? ORDER BY ci.id').all(contactId) as (InboxRow & { source_id: string })[];
