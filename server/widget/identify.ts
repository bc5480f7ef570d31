// Identifying a widget visitor (PATCH /api/v1/widget/contact/set_user, and PATCH contact with an
// identifier). The identifier_hash rule is the Client family's (spec rules 1, 4, 5, 7); a failure
// here is the reference service's 401 {error: "HMAC failed: ..."} (chatwoot-compat §6.3).
//
// Decisions, all on the side of never letting a visitor claim someone else's identity:
// - A verified identifier attaches this contact inbox to the account's contact holding it, so the
//   person's other verified sessions and their conversations are shared (spec: verified sessions
//   see all conversations of the identified contact).
// - An unverified identifier is only recorded when no other contact holds it; it never merges.
// - A visitor already identified as someone else starts a new contact inbox with a new token
//   (returned as widget_auth_token), as the reference service does.
import { randomUUID } from 'node:crypto';
import { stmt } from '../db/open';
import type { ContactBody } from '../http/contact-fields';
import { contactPatchOf } from '../http/contact-fields';
import { verifyIdentity, widgetHmacFailure } from '../http/identity';
import type { ContactRow } from '../presenters/people';
import { contactById } from '../presenters/people';
import type { VisitorSession, WidgetDeps } from '../routes/widget/scope';
import { visitorWrite } from '../routes/widget/scope';
import { contactInboxById, createContactWithInbox, markVerified } from '../store/contact-inboxes';
import { commit, updateContact } from '../store/writes';

export interface Identified extends VisitorSession {
  /** Set when the visitor became a different person: the token of the new session. */
  newToken?: string;
}

function contactWithIdentifier(deps: WidgetDeps, accountId: number, identifier: string): ContactRow | undefined {
  return stmt(deps.db, 'SELECT * FROM contacts WHERE account_id = ? AND identifier = ? ORDER BY id LIMIT 1').get(accountId, identifier) as ContactRow | undefined;
}

/** Moves a contact inbox (and its conversations and the visitor's messages) to another contact. */
function attachTo(deps: WidgetDeps, session: VisitorSession, target: ContactRow) {
  const from = session.contact.id;
  commit(visitorWrite(deps, session.contact), (events) => {
    const db = deps.db;
    stmt(db, 'UPDATE contact_inboxes SET contact_id = ? WHERE id = ?').run(target.id, session.contactInbox.id);
    stmt(db, "UPDATE messages SET sender_id = ? WHERE sender_type = 'Contact' AND sender_id = ? AND conversation_id IN (SELECT id FROM conversations WHERE contact_inbox_id = ?)").run(
      target.id,
      from,
      session.contactInbox.id,
    );
    stmt(db, 'UPDATE conversations SET contact_id = ? WHERE contact_inbox_id = ?').run(target.id, session.contactInbox.id);
    events.push({ name: 'contact.merged', accountId: target.account_id, contactId: target.id });
  });
}

export async function identifyVisitor(deps: WidgetDeps, session: VisitorSession, body: ContactBody): Promise<Identified> {
  const { inbox } = session;
  const identity = verifyIdentity(inbox, body);
  if (identity === 'failed') throw widgetHmacFailure();
  const verified = identity === 'verified';
  const identifier = body.identifier?.trim() || undefined;
  const now = deps.clock();
  const patch = contactPatchOf(body, { withIdentifier: false });
  let current: Identified = session;

  if (identifier && session.contact.identifier && session.contact.identifier !== identifier) {
    // Someone else on this browser: a new contact inbox, and a token for it.
    const owner = verified ? contactWithIdentifier(deps, inbox.account_id, identifier) : undefined;
    const created = createContactWithInbox(
      { db: deps.db, bus: deps.bus, now },
      {
        inbox,
        sourceId: randomUUID(),
        reuseIdentifier: owner ? identifier : null,
        contact: { name: patch.name ?? null, email: patch.email ?? null, phoneNumber: patch.phoneNumber ?? null, identifier: owner ? identifier : identifierIfFree(deps, inbox.account_id, identifier), contactType: 'lead' },
        verified,
      },
    );
    const newToken = await deps.tokens.issue({ source_id: created.contactInbox.source_id, inbox_id: inbox.id });
    current = { inbox, contactInbox: created.contactInbox, contact: created.contact, newToken };
  } else if (identifier && session.contact.identifier !== identifier) {
    const owner = contactWithIdentifier(deps, inbox.account_id, identifier);
    if (owner && verified) {
      attachTo(deps, session, owner);
      current = { inbox, contactInbox: contactInboxById(deps.db, session.contactInbox.id)!, contact: owner };
    } else if (!owner) {
      patch.identifier = identifier;
    }
  }
  if (verified) current = { ...current, contactInbox: markVerified(deps.db, current.contactInbox, now) };
  const contact = updateContact(visitorWrite(deps, current.contact), contactById(deps.db, current.contact.id)!, patch);
  return { ...current, contact };
}

function identifierIfFree(deps: WidgetDeps, accountId: number, identifier: string): string | null {
  return contactWithIdentifier(deps, accountId, identifier) ? null : identifier;
}
