// Starting a conversation from the Application API (chatwoot-compat §1.2 POST A/conversations):
// find or build the contact inbox, apply the reference service's starting status, insert the
// conversation and its optional first message in one transaction. Also: deleting one.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { Caller } from '../http/auth';
import { visibleInboxIds } from '../http/auth';
import { attributesObject, boolish, oneOf, optionalId } from '../http/body';
import { invalid, notAuthorized, notFound } from '../http/errors';
import type { InboxRow } from './inboxes';
import { inboxSettings } from '../presenters/inbox';
import type { ContactRow } from './contacts';
import type { ConversationRow } from './conversations';
import { createContactInbox } from './provision';
import type { WriteContext } from './writes';
import { commit, insertConversation, insertMessage } from './writes';

const epochSecondsOrIso = z.union([z.number().int().min(0).max(253_402_300_799), z.string().max(40)]).transform((v, ctx) => {
  const ms = typeof v === 'number' || /^\d{1,12}$/.test(v) ? Number(v) * 1000 : Date.parse(v);
  if (!Number.isFinite(ms) || ms < 0) {
    ctx.addIssue({ code: 'custom', message: 'must be a time (epoch seconds or ISO 8601)' });
    return z.NEVER;
  }
  return ms;
});

export const startConversationBody = z.object({
  source_id: z.string().trim().min(1).max(255).optional(),
  inbox_id: optionalId.optional(),
  contact_id: optionalId.optional(),
  additional_attributes: attributesObject.optional(),
  custom_attributes: attributesObject.optional(),
  status: oneOf(['open', 'resolved', 'pending', 'snoozed']).optional(),
  assignee_id: optionalId.optional(),
  team_id: optionalId.optional(),
  snoozed_until: z.union([epochSecondsOrIso, z.null()]).optional(),
  hmac_verified: boolish.optional(),
  message: z.object({ content: z.string().max(150_000, 'is too long (maximum is 150000 characters)').nullish() }).optional(),
});
export type StartConversation = z.output<typeof startConversationBody>;

interface ContactInboxRow {
  id: number;
  contact_id: number;
  inbox_id: number;
  source_id: string;
}

function inboxFor(db: Db, caller: Caller, id: number): InboxRow {
  const inbox = stmt(db, 'SELECT * FROM inboxes WHERE id = ? AND account_id = ?').get(id, caller.accountId) as InboxRow | undefined;
  if (!inbox) throw notFound();
  if (!visibleInboxIds(db, caller).includes(inbox.id)) throw notAuthorized();
  return inbox;
}

/** The contact inbox the conversation belongs to: built from inbox + contact, or found by source_id. */
function contactInboxFor(db: Db, caller: Caller, body: StartConversation, now: number): ContactInboxRow {
  if (body.inbox_id && body.contact_id) {
    const inbox = inboxFor(db, caller, body.inbox_id);
    const contact = stmt(db, 'SELECT * FROM contacts WHERE id = ? AND account_id = ?').get(body.contact_id, caller.accountId) as ContactRow | undefined;
    if (!contact) throw notFound();
    let sourceId = body.source_id;
    if (!sourceId && inbox.channel_type === 'Channel::Email') {
      if (!contact.email) throw invalid("Contact email can't be blank for an email inbox", ['contact_id']);
      sourceId = contact.email;
    }
    sourceId ??= randomUUID();
    const existing = stmt(db, 'SELECT * FROM contact_inboxes WHERE inbox_id = ? AND source_id = ?').get(inbox.id, sourceId) as ContactInboxRow | undefined;
    if (existing && existing.contact_id !== contact.id) throw invalid('source_id should be unique', ['source_id']);
    const row = existing ?? { ...createContactInbox(db, contact.id, inbox.id, now, sourceId), contact_id: contact.id, inbox_id: inbox.id };
    if (body.hmac_verified !== undefined) stmt(db, 'UPDATE contact_inboxes SET hmac_verified = ? WHERE id = ?').run(body.hmac_verified ? 1 : 0, row.id);
    return { id: row.id, contact_id: contact.id, inbox_id: inbox.id, source_id: sourceId };
  }
  if (body.source_id) {
    const row = stmt(
      db,
      'SELECT ci.* FROM contact_inboxes ci JOIN inboxes i ON i.id = ci.inbox_id WHERE ci.source_id = ? AND i.account_id = ? ORDER BY ci.id LIMIT 1',
    ).get(body.source_id, caller.accountId) as ContactInboxRow | undefined;
    if (!row) throw notFound();
    inboxFor(db, caller, row.inbox_id);
    return row;
  }
  throw invalid('inbox_id and contact_id, or source_id, are required', ['inbox_id', 'contact_id', 'source_id']);
}

export function startConversation(ctx: WriteContext, caller: Caller, body: StartConversation): ConversationRow {
  const db = ctx.db;
  if (body.assignee_id && !stmt(db, 'SELECT 1 FROM account_users WHERE account_id = ? AND user_id = ?').get(caller.accountId, body.assignee_id)) {
    throw invalid('Assignee must be an agent of this account', ['assignee_id']);
  }
  if (body.team_id && !stmt(db, 'SELECT 1 FROM teams WHERE id = ? AND account_id = ?').get(body.team_id, caller.accountId)) {
    throw invalid('Team must belong to this account', ['team_id']);
  }
  return commit(ctx, (events) => {
    const ci = contactInboxFor(db, caller, body, ctx.now);
    const inbox = stmt(db, 'SELECT * FROM inboxes WHERE id = ?').get(ci.inbox_id) as InboxRow;
    // A locked inbox keeps one conversation per contact: the existing one is returned.
    const locked = inboxSettings(inbox).lock_to_single_conversation
      ? (stmt(db, 'SELECT * FROM conversations WHERE contact_inbox_id = ? ORDER BY id DESC LIMIT 1').get(ci.id) as ConversationRow | undefined)
      : undefined;
    let conversation = locked;
    if (!conversation) {
      // Starting status as the reference model decides it: a blocked contact's conversation starts
      // resolved, one in an inbox with an active agent bot starts pending.
      const blocked = (stmt(db, 'SELECT blocked FROM contacts WHERE id = ?').get(ci.contact_id) as { blocked: number }).blocked === 1;
      const bot = stmt(db, "SELECT 1 FROM agent_bot_inboxes WHERE inbox_id = ? AND status = 'active'").get(ci.inbox_id);
      const status = blocked ? 'resolved' : bot ? 'pending' : (body.status ?? 'open');
      conversation = insertConversation(
        ctx,
        {
          accountId: caller.accountId,
          inboxId: ci.inbox_id,
          contactId: ci.contact_id,
          contactInboxId: ci.id,
          status,
          assigneeId: body.assignee_id ?? null,
          teamId: body.team_id ?? null,
          snoozedUntil: status === 'snoozed' ? (body.snoozed_until ?? null) : null,
          additionalAttributes: body.additional_attributes ?? {},
          customAttributes: body.custom_attributes ?? {},
        },
        events,
      );
    }
    const content = body.message?.content;
    if (content && content.trim() !== '') {
      const sender = caller.user ? { type: 'User' as const, id: caller.user.id } : { type: 'AgentBot' as const, id: caller.bot!.id };
      insertMessage(ctx, { conversation, messageType: 1, content, sender }, events);
    }
    return stmt(db, 'SELECT * FROM conversations WHERE id = ?').get(conversation.id) as ConversationRow;
  });
}
