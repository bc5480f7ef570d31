// Changing and deleting contacts, with contact.updated / contact.deleted events carrying
// [previous, current] changes, after commit. Creating one is `insertContact` in writes.ts.
import type { Db } from '../db/open';
import { json, stmt } from '../db/open';
import type { Changes } from '../events/bus';
import type { ContactRow } from './contacts';
import { contactPush } from '../presenters/people';
import type { AvatarChange } from './contact-avatars';
import { applyAvatar, deleteAvatarOf } from './contact-avatars';
import { deleteConversation } from './conversations';
import type { WriteContext } from './writes';
import { commit } from './writes';

export interface ContactChange {
  name?: string;
  email?: string | null;
  phoneNumber?: string | null;
  identifier?: string | null;
  blocked?: boolean;
  /** Merged into the stored hash (chatwoot-compat §9.5: contact attributes merge). */
  additionalAttributes?: Record<string, unknown>;
  customAttributes?: Record<string, unknown>;
  avatar?: AvatarChange;
}

export const contactLabels = (db: Db, contactId: number) =>
  (stmt(db, 'SELECT title FROM contact_labels WHERE contact_id = ? ORDER BY title').all(contactId) as { title: string }[]).map((r) => r.title);

export function updateContact(ctx: WriteContext, c: ContactRow, change: ContactChange): ContactRow {
  return commit(ctx, (events) => {
    const next = {
      name: change.name ?? c.name,
      email: change.email === undefined ? c.email : change.email,
      phone_number: change.phoneNumber === undefined ? c.phone_number : change.phoneNumber,
      identifier: change.identifier === undefined ? c.identifier : change.identifier,
      blocked: change.blocked === undefined ? c.blocked : change.blocked ? 1 : 0,
      additional_attributes: JSON.stringify({ ...json.parse(c.additional_attributes), ...(change.additionalAttributes ?? {}) }),
      custom_attributes: JSON.stringify({ ...json.parse(c.custom_attributes), ...(change.customAttributes ?? {}) }),
    };
    const changes: Changes = {};
    for (const key of Object.keys(next) as (keyof typeof next)[]) {
      if (next[key] !== c[key]) {
        const parse = key.endsWith('attributes') ? (v: unknown) => json.parse(v as string) : key === 'blocked' ? (v: unknown) => v === 1 : (v: unknown) => v;
        changes[key] = [parse(c[key]), parse(next[key])];
      }
    }
    // In the same transaction and the same contact.updated event as the other attributes.
    Object.assign(changes, applyAvatar(ctx.db, c, change.avatar, ctx.now));
    if (Object.keys(changes).length === 0) return stmt(ctx.db, 'SELECT * FROM contacts WHERE id = ?').get(c.id) as ContactRow;
    stmt(
      ctx.db,
      `UPDATE contacts SET name = ?, email = ?, phone_number = ?, identifier = ?, blocked = ?, additional_attributes = ?, custom_attributes = ?, updated_at = ? WHERE id = ?`,
    ).run(next.name, next.email, next.phone_number, next.identifier, next.blocked, next.additional_attributes, next.custom_attributes, ctx.now, c.id);
    events.push({ name: 'contact.updated', accountId: c.account_id, contactId: c.id, changes });
    return stmt(ctx.db, 'SELECT * FROM contacts WHERE id = ?').get(c.id) as ContactRow;
  });
}

/** Replaces the contact's labels; emits contact.updated when the set changed. */
export function setContactLabels(ctx: WriteContext, c: ContactRow, labels: string[]): string[] {
  return commit(ctx, (events) => {
    const before = contactLabels(ctx.db, c.id);
    const after = [...new Set(labels)].sort();
    if (JSON.stringify(before) === JSON.stringify(after)) return before;
    stmt(ctx.db, 'DELETE FROM contact_labels WHERE contact_id = ?').run(c.id);
    for (const title of after) stmt(ctx.db, 'INSERT INTO contact_labels (contact_id, title) VALUES (?, ?)').run(c.id, title);
    events.push({ name: 'contact.updated', accountId: c.account_id, contactId: c.id, changes: { label_list: [before, after] } });
    return after;
  });
}

/** Deletes the contact with its conversations, contact inboxes, labels and notes. */
export function deleteContact(ctx: WriteContext, c: ContactRow): void {
  commit(ctx, (events) => {
    const db = ctx.db;
    for (const { id } of stmt(db, 'SELECT id FROM conversations WHERE contact_id = ?').all(c.id) as { id: number }[]) deleteConversation(db, id);
    stmt(db, 'DELETE FROM contact_inboxes WHERE contact_id = ?').run(c.id);
    stmt(db, 'DELETE FROM contact_labels WHERE contact_id = ?').run(c.id);
    stmt(db, 'DELETE FROM contact_notes WHERE contact_id = ?').run(c.id);
    stmt(db, 'DELETE FROM contacts WHERE id = ?').run(c.id);
    deleteAvatarOf(db, c);
    // The row is gone, so listeners get what they need to describe it.
    events.push({ name: 'contact.deleted', accountId: c.account_id, contactId: c.id, snapshot: contactPush(c) });
  });
}
