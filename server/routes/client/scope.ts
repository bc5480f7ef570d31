// Resolving the Client family's credentials: the two path identifiers. Every failure is a 404
// (spec: Authentication → Client family): an unknown inbox_identifier or one that is not a
// Channel::Api inbox, a contact_identifier that is not a source_id in that inbox, a conversation
// that is not the contact's.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/open';
import type { EventBus } from '../../events/bus';
import { notFound } from '../../http/errors';
import { intString } from '../../http/params';
import type { InboxRow } from '../../store/inboxes';
import { contactById } from '../../presenters/people';
import type { ContactRow } from '../../presenters/people';
import type { ContactInboxRow } from '../../store/contact-inboxes';
import { apiInboxByIdentifier, contactInboxBySource, visibleConversation } from '../../store/contact-inboxes';
import type { ConversationRow } from '../../store/conversations';
import type { WriteContext } from '../../store/writes';

export interface PublicDeps {
  db: Db;
  bus: EventBus;
  clock: () => number;
  /** ServiceOptions.publicUrl: links stored from a contact's request never take its Host header. */
  publicUrl?: () => string | undefined;
}

const identifierParam = z.string().min(1).max(255);
const inboxParams = z.object({ inbox_identifier: identifierParam });
const contactParams = inboxParams.extend({ contact_identifier: identifierParam });
const conversationParams = contactParams.extend({ conversation_id: intString });

/** Path parameters that are not even well-formed cannot name anything: 404, like unknown ones. */
function params<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw notFound();
  return result.data;
}

export function clientInbox(db: Db, request: FastifyRequest): InboxRow {
  const { inbox_identifier } = params(inboxParams, request.params);
  const inbox = apiInboxByIdentifier(db, inbox_identifier);
  if (!inbox) throw notFound();
  return inbox;
}

export interface ClientContactScope {
  inbox: InboxRow;
  contactInbox: ContactInboxRow;
  contact: ContactRow;
}

export function clientContact(db: Db, request: FastifyRequest): ClientContactScope {
  const inbox = clientInbox(db, request);
  const { contact_identifier } = params(contactParams, request.params);
  const contactInbox = contactInboxBySource(db, inbox.id, contact_identifier);
  const contact = contactInbox && contactById(db, contactInbox.contact_id);
  if (!contactInbox || !contact) throw notFound();
  return { inbox, contactInbox, contact };
}

export function clientConversation(db: Db, request: FastifyRequest): ClientContactScope & { conversation: ConversationRow } {
  const scope = clientContact(db, request);
  const { conversation_id } = params(conversationParams, request.params);
  const conversation = visibleConversation(db, scope.contactInbox, 'client', conversation_id);
  if (!conversation) throw notFound();
  return { ...scope, conversation };
}

/** Writes made by a contact: the performer is the contact (no agent performer on live events). */
export function contactWrite(deps: PublicDeps, contact: ContactRow): WriteContext {
  return { db: deps.db, bus: deps.bus, now: deps.clock(), performer: { type: 'contact', id: contact.id } };
}
