// One contact's data and behaviour for the contact panel: the contact from the cache at once (the
// conversation's copy of its name and email until the contact itself is cached), then read from
// the service with its labels and notes; the agent's changes still on their way or refused (the
// contact's outbox lane); and the changes themselves, queued through the outbox.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import type { Contact } from '../../../shared/api/contacts';
import type { CachedContactNote, CachedConversation, OutboxEntry } from '../db/schema';
import { saveContact, saveContactNotes, saveConversations, showContactOnConversations } from '../db/save';
import type { ContactFieldChange, ContactIntent } from '../model/contact-intent';
import { contactLane } from '../model/contact-intent';
import { callOrThrow, isUnreachable } from '../platform/call';
import { useSession } from '../platform/session';

/** A refused change of the details, as the form shows it: the service's words, by the field it named. */
export interface FieldError {
  seq: number;
  message: string;
  /** What the agent tried (the form starts from it). */
  attempted: ContactFieldChange;
  removed: string[];
}

/** A note as the panel lists it: the service's, or one of the agent's still on its way or refused. */
export interface ShownNote {
  key: string;
  note?: CachedContactNote;
  pending?: { seq: number; content: string; state: OutboxEntry['state']; error?: string };
  deleting?: boolean;
}

const contactOp = (e: OutboxEntry) => e.payload as ContactIntent;
const open = (e: OutboxEntry) => e.state === 'queued' || e.state === 'sending';

/** Errors of refused detail changes by field (`name`, `email`, `phone_number`, `custom_attributes`, or `base` when the service named none). */
export function fieldErrors(entries: readonly OutboxEntry[]): Record<string, FieldError> {
  const out: Record<string, FieldError> = {};
  for (const e of entries) {
    const op = contactOp(e);
    if (e.state !== 'failed' || (op.op !== 'fields' && op.op !== 'removeAttributes')) continue;
    const error: FieldError = { seq: e.seq!, message: e.lastError ?? 'The service refused it.', attempted: op.op === 'fields' ? op.fields : {}, removed: op.op === 'removeAttributes' ? op.keys : [] };
    const named = (e.lastErrorAttributes ?? []).filter((a) => ['name', 'email', 'phone_number', 'custom_attributes'].includes(a));
    for (const field of named.length ? named : ['base']) out[field] = error;
  }
  return out;
}

/** The notes to list: the agent's own not yet saved (newest first), then the service's, those being deleted marked. */
export function shownNotes(notes: readonly CachedContactNote[], entries: readonly OutboxEntry[]): ShownNote[] {
  const deleting = new Set(entries.filter((e) => open(e) && contactOp(e).op === 'noteDelete').map((e) => (contactOp(e) as Extract<ContactIntent, { op: 'noteDelete' }>).noteId));
  const mine: ShownNote[] = entries
    .filter((e) => contactOp(e).op === 'noteCreate' && (open(e) || e.state === 'failed'))
    .reverse()
    .map((e) => ({
      key: e.clientId,
      pending: { seq: e.seq!, content: (contactOp(e) as Extract<ContactIntent, { op: 'noteCreate' }>).content, state: e.state, ...(e.state === 'failed' && e.lastError ? { error: e.lastError } : {}) },
    }));
  const theirs = [...notes].sort((a, b) => b.created_at - a.created_at || b.id - a.id).map((note) => ({ key: `note-${note.id}`, note, deleting: deleting.has(note.id) }));
  return [...mine, ...theirs];
}

export function useContact(conversation: CachedConversation) {
  const { bridge, db, client } = useSession();
  const queries = useQueryClient();
  const contactId = conversation.contactId;
  const cached = useLiveQuery(() => (contactId ? db.contacts.get(contactId) : undefined), [db, contactId]);
  const entries = useLiveQuery(async () => (contactId ? (await db.outbox.where('conversationId').equals(contactLane(contactId)).sortBy('seq')).filter((e) => e.state !== 'confirmed') : []), [db, contactId]);
  const notes = useLiveQuery(() => (contactId ? db.contactNotes.where('contactId').equals(contactId).toArray() : []), [db, contactId]);
  const previous = useLiveQuery(
    async () => (contactId ? (await db.conversations.where('contactId').equals(contactId).toArray()).sort((a, b) => b.lastActivityAt - a.lastActivityAt) : []),
    [db, contactId],
  );
  const fetched = useQuery({
    queryKey: ['contact', db.name, contactId],
    enabled: contactId > 0,
    queryFn: async () => {
      const askedAt = Date.now();
      // The record does not carry the contact's labels; both are saved together.
      const [r, labels] = await Promise.all([callOrThrow(bridge, 'contacts.get', { contactId }), callOrThrow(bridge, 'contacts.labels', { contactId })]);
      await showContactOnConversations(db, await saveContact(db, { ...r.payload, labels: labels.payload }, askedAt));
      return true;
    },
  });
  const notesRead = useQuery({
    queryKey: ['contact-notes', db.name, contactId],
    enabled: contactId > 0,
    queryFn: async () => {
      await saveContactNotes(db, contactId, await callOrThrow(bridge, 'contacts.notes', { contactId }));
      return true;
    },
  });
  useQuery({
    queryKey: ['contact-conversations', db.name, contactId],
    enabled: contactId > 0,
    queryFn: async () => {
      const askedAt = Date.now();
      const r = await callOrThrow(bridge, 'contacts.conversations', { contactId });
      await saveConversations(db, r.payload, askedAt);
      return true;
    },
  });

  const contact: Partial<Contact> = cached ?? { name: conversation.contactName, email: conversation.contactEmail || null };
  const list = useMemo(() => entries ?? [], [entries]);
  const actions = client.actions.contacts;
  /** After a discard the service's values show again (what is still queued stays on top). */
  const reread = () => void queries.invalidateQueries({ queryKey: ['contact', db.name, contactId] });
  return {
    contactId,
    contact,
    cached,
    /** Only the name and email the conversation carries are here, and the service cannot be reached. */
    notCached: cached === undefined && isUnreachable(fetched.error),
    previous: previous ?? [],
    /** Changes of this contact on their way. */
    saving: list.filter(open).length,
    errors: fieldErrors(list),
    notes: shownNotes(notes ?? [], list),
    notesUnavailable: (notes ?? []).length === 0 && isUnreachable(notesRead.error),
    save: async (change: ContactFieldChange, removedAttributes: readonly string[]) => {
      // A new attempt replaces the refused one it corrects.
      for (const e of list) if (e.state === 'failed' && ['fields', 'removeAttributes'].includes(contactOp(e).op)) await actions.discard(e.seq!);
      await actions.edit(contactId, change);
      if (removedAttributes.length) await actions.removeAttributes(contactId, removedAttributes);
    },
    changeLabels: (change: { add: string[]; remove: string[] }) => actions.changeLabels(contactId, change),
    addNote: (content: string) => actions.addNote(contactId, content),
    deleteNote: (noteId: number) => actions.deleteNote(contactId, noteId),
    retry: (seq: number) => actions.retry(seq),
    discard: async (seq: number) => {
      await actions.discard(seq);
      reread();
    },
  };
}
export type ContactState = ReturnType<typeof useContact>;
