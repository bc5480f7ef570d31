// The agent's changes to a contact, as end states the outbox can repeat (SYNC-PROTOCOL.md, "Contact
// writes"): these fields have these values, these attributes are gone, these labels added and
// removed, this note exists, that note is gone. Pure: the same functions apply a change the moment
// the agent makes it and re-apply still-queued ones over whatever the service answers later.
//
// A contact's changes go in their own outbox lane, after one another and never beside another
// request of unknown outcome for the same contact, exactly as a conversation's do. The lane is the
// outbox's `conversationId` field: a conversation's display id there, a contact's id negated here
// (`contactLane`). Conversation ids are positive, so the two never meet.
import type { Contact } from '../../../shared/api/contacts';
import type { LabelChange } from './labels';
import { normalizeLabels, withLabelChange } from './labels';

/** A custom attribute's value as the agent can type it. */
export type AttributeValue = string | number | boolean | null;

export interface ContactFieldChange {
  name?: string;
  /** null clears it. */
  email?: string | null;
  phone_number?: string | null;
  /** Set these attributes (the service merges: the others stay). */
  custom_attributes?: Record<string, AttributeValue>;
}

export type ContactOp =
  | { op: 'fields'; fields: ContactFieldChange }
  | { op: 'removeAttributes'; keys: string[] }
  /** Applied to whatever set the service has when it goes (another agent's labels are kept). */
  | { op: 'labels'; change: LabelChange }
  /** `authorId`: the agent writing it (after an unknown outcome, the note is looked for among theirs). */
  | { op: 'noteCreate'; content: string; authorId: number }
  | { op: 'noteDelete'; noteId: number };

export type ContactIntent = { kind: 'contact'; contactId: number } & ContactOp;

/** The outbox lane of a contact's changes (see above). */
export const contactLane = (contactId: number) => -contactId;
export const isContactLane = (lane: number) => lane < 0;

/** The contact after `intent` (notes are not part of the contact record: unchanged). */
export function applyContactIntent(contact: Contact, intent: ContactIntent): Contact {
  switch (intent.op) {
    case 'fields': {
      const f = intent.fields;
      return {
        ...contact,
        ...(f.name === undefined ? {} : { name: f.name }),
        ...(f.email === undefined ? {} : { email: f.email || null }),
        ...(f.phone_number === undefined ? {} : { phone_number: f.phone_number || null }),
        ...(f.custom_attributes ? { custom_attributes: { ...contact.custom_attributes, ...f.custom_attributes } } : {}),
      };
    }
    case 'removeAttributes':
      return { ...contact, custom_attributes: Object.fromEntries(Object.entries(contact.custom_attributes).filter(([k]) => !intent.keys.includes(k))) };
    case 'labels':
      return { ...contact, labels: withLabelChange(contact.labels ?? [], intent.change) };
    case 'noteCreate':
    case 'noteDelete':
      return contact;
  }
}

/** The fields of `change` that differ from what the contact has (an edit that changes nothing queues nothing). */
export function changedFields(contact: Contact | undefined, change: ContactFieldChange): ContactFieldChange | undefined {
  const out: ContactFieldChange = {};
  const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null) || (a === '' && b === null) || (a === null && b === '');
  if (change.name !== undefined && change.name !== (contact?.name ?? '')) out.name = change.name;
  if (change.email !== undefined && !same(change.email, contact?.email)) out.email = change.email || null;
  if (change.phone_number !== undefined && !same(change.phone_number, contact?.phone_number)) out.phone_number = change.phone_number || null;
  const attributes = Object.entries(change.custom_attributes ?? {}).filter(([k, v]) => contact?.custom_attributes[k] !== v);
  if (attributes.length) out.custom_attributes = Object.fromEntries(attributes);
  return Object.keys(out).length ? out : undefined;
}

/** A label change as the agent asked it: trimmed, each once, a label both added and removed dropped from the removals. */
export const labelChange = (add: readonly string[], remove: readonly string[]): LabelChange => {
  const added = normalizeLabels(add);
  return { add: added, remove: normalizeLabels(remove).filter((l) => !added.includes(l)) };
};

const fieldWords: Record<string, string> = { name: 'name', email: 'email', phone_number: 'phone number', custom_attributes: 'custom attributes' };

/** "save the email and phone number of", "add a note to": what the agent asked for, for messages about it. */
export function describeContactIntent(intent: ContactIntent): string {
  switch (intent.op) {
    case 'fields': {
      const names = Object.keys(intent.fields).map((k) => fieldWords[k] ?? k);
      return `save the ${names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? 'details')} of`;
    }
    case 'removeAttributes':
      return `remove ${intent.keys.join(', ')} from`;
    case 'labels':
      return 'change the labels of';
    case 'noteCreate':
      return 'add a note to';
    case 'noteDelete':
      return 'delete a note of';
  }
}
