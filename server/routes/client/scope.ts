// The Client family's scopes, as hooks instead of a call in every handler. Its credentials are the
// path identifiers, and the URL's folders are its scopes (routes/client/index.ts):
//   /public/api/v1/inboxes/:inbox_identifier        the inbox scope: `request.clientInbox`
//     /contacts/:contact_identifier                 the contact scope: `request.clientContact`
//       /conversations/:conversation_id             the conversation scope: `request.clientConversation`
// Every failure is a 404 (spec: Authentication → Client family): an unknown inbox_identifier or one
// that is not a Channel::Api inbox, a contact_identifier that is not a source_id in that inbox, a
// conversation that is not the contact's; a path parameter that is not even well-formed names
// nothing either. The hooks run at preValidation, after the body is read: a body that cannot be
// read (400) wins over an unknown identifier (404), as it did when each handler resolved them.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/open';
import type { EventBus } from '../../events/bus';
import { notFound } from '../../http/errors';
import { intString } from '../../http/params';
import type { InboxRow } from '../../store/inboxes';
import type { ContactRow } from '../../presenters/people';
import type { ContactInboxRow } from '../../store/contact-inboxes';
import { apiInboxByIdentifier, contactInboxWithContact, visibleConversation } from '../../store/contact-inboxes';
import type { ConversationRow } from '../../store/conversations';
import type { WriteContext } from '../../store/writes';

export interface PublicDeps {
  db: Db;
  bus: EventBus;
  clock: () => number;
  /** ServiceOptions.publicUrl: links stored from a contact's request never take its Host header. */
  publicUrl?: () => string | undefined;
}

export interface ClientContactScope {
  inbox: InboxRow;
  contactInbox: ContactInboxRow;
  contact: ContactRow;
}

export type ClientConversationScope = ClientContactScope & { conversation: ConversationRow };

declare module 'fastify' {
  interface FastifyRequest {
    /** Client API: the inbox of the path's inbox_identifier (set by the inbox scope). */
    clientInbox: InboxRow;
    /** Client API: the contact of the path's contact_identifier in that inbox (set by the contact scope). */
    clientContact: ClientContactScope;
    /** Client API: the contact's conversation of the path's conversation_id (set by the conversation scope). */
    clientConversation: ClientConversationScope;
  }
}

const identifierParam = z.string().min(1).max(255);
const inboxParams = z.object({ inbox_identifier: identifierParam });
const contactParams = z.object({ contact_identifier: identifierParam });
const conversationParams = z.object({ conversation_id: intString });

/** Path parameters that are not even well-formed cannot name anything: 404, like unknown ones. */
function params<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw notFound();
  return result.data;
}

/** Every route of `scope` (and its plugins) answers for the inbox of its path's inbox_identifier. */
export function installInboxScope(scope: FastifyInstance, db: Db) {
  scope.decorateRequest('clientInbox', null as unknown as InboxRow);
  scope.addHook('preValidation', async (request: FastifyRequest) => {
    const { inbox_identifier } = params(inboxParams, request.params);
    const inbox = apiInboxByIdentifier(db, inbox_identifier);
    if (!inbox) throw notFound();
    request.clientInbox = inbox;
  });
}

/** Inside the inbox scope: every route answers for the contact of its path's contact_identifier. */
export function installContactScope(scope: FastifyInstance, db: Db) {
  scope.decorateRequest('clientContact', null as unknown as ClientContactScope);
  scope.addHook('preValidation', async (request: FastifyRequest) => {
    const inbox = request.clientInbox;
    const { contact_identifier } = params(contactParams, request.params);
    const found = contactInboxWithContact(db, inbox.id, contact_identifier);
    if (!found) throw notFound();
    request.clientContact = { inbox, ...found };
  });
}

/** Inside the contact scope: every route answers for the contact's conversation of its path's conversation_id. */
export function installConversationScope(scope: FastifyInstance, db: Db) {
  scope.decorateRequest('clientConversation', null as unknown as ClientConversationScope);
  scope.addHook('preValidation', async (request: FastifyRequest) => {
    const contactScope = request.clientContact;
    const { conversation_id } = params(conversationParams, request.params);
    const conversation = visibleConversation(db, contactScope.contactInbox, 'client', contactScope.inbox.account_id, conversation_id);
    if (!conversation) throw notFound();
    request.clientConversation = { ...contactScope, conversation };
  });
}

/** Writes made by a contact: the performer is the contact (no agent performer on live events). */
export function contactWrite(deps: PublicDeps, contact: ContactRow): WriteContext {
  return { db: deps.db, bus: deps.bus, now: deps.clock(), performer: { type: 'contact', id: contact.id } };
}
