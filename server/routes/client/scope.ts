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
import type { Db } from '../../db/open';
import type { EventBus } from '../../events/bus';
import { notFound } from '../../http/errors';
import type { InboxRow } from '../../store/inboxes';
import type { ContactRow } from '../../presenters/people';
import type { ContactInboxRow } from '../../store/contact-inboxes';
import { apiInboxByIdentifier, clientConversationScope, contactInboxWithContact, visibleConversation } from '../../store/contact-inboxes';
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
    /** Client API: `GroupCommit.epoch` before the scope's first read (set by the inbox scope). */
    clientReadEpoch: number;
  }
}

/**
 * A path identifier that is not even well-formed names nothing: 404, like an unknown one. Plain
 * checks, not zod: every Client request runs all three of its levels' (a zod object parse each
 * was a few µs of a create). An identifier is 1-255 characters; a conversation id 1-15 digits, not 0.
 */
const wellFormed = (value: unknown): value is string => typeof value === 'string' && value.length >= 1 && value.length <= 255;
function identifier(value: unknown): string {
  if (!wellFormed(value)) throw notFound();
  return value;
}
const DIGITS = /^\d{1,15}$/;
/** The conversation id a path names, or undefined when it is not one. */
function displayIdOf(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  return typeof text === 'string' && DIGITS.test(text) && Number(text) !== 0 ? Number(text) : undefined;
}
function conversationId(value: unknown): number {
  const id = displayIdOf(value);
  if (id === undefined) throw notFound();
  return id;
}

type PathParams = Record<string, unknown>;

// The hooks are callback hooks, not async ones: they run on every Client request, and an async
// hook costs a promise and a microtask turn each time. A throw is answered as a rejection would be.

// The three lookups, one per level, each answering 404 for a path identifier that names nothing.
// The hooks below run them for every request; a grouped message create runs them again when what
// its hooks read may have changed before its write ran (resolveConversationScope).

function inboxScope(db: Db, params: PathParams): InboxRow {
  const inbox = apiInboxByIdentifier(db, identifier(params.inbox_identifier));
  if (!inbox) throw notFound();
  return inbox;
}

function contactScope(db: Db, inbox: InboxRow, params: PathParams): ClientContactScope {
  const found = contactInboxWithContact(db, inbox.id, identifier(params.contact_identifier));
  if (!found) throw notFound();
  return { inbox, contactInbox: found.contactInbox, contact: found.contact };
}

function conversationScope(db: Db, scope: ClientContactScope, params: PathParams): ClientConversationScope {
  const { inbox, contactInbox, contact } = scope;
  const conversation = visibleConversation(db, contactInbox, 'client', inbox.account_id, conversationId(params.conversation_id));
  if (!conversation) throw notFound();
  return { inbox, contactInbox, contact, conversation };
}

/**
 * A conversation-level path's whole scope in one read (store: clientConversationScope), when its
 * identifiers are well formed and name a conversation the contact may see; otherwise undefined, and
 * the hooks resolve it level by level as before, answering the same 404s.
 */
function conversationScopeAtOnce(db: Db, params: PathParams): ClientConversationScope | undefined {
  const displayId = params.conversation_id === undefined ? undefined : displayIdOf(params.conversation_id);
  if (displayId === undefined || !wellFormed(params.inbox_identifier) || !wellFormed(params.contact_identifier)) return undefined;
  return clientConversationScope(db, params.inbox_identifier, params.contact_identifier, displayId);
}

/** The conversation scope of a request's path, read now (what the three hooks resolve, in their order). */
export function resolveConversationScope(db: Db, params: unknown): ClientConversationScope {
  const path = params as PathParams;
  return conversationScope(db, contactScope(db, inboxScope(db, path), path), path);
}

/**
 * Every route of `scope` (and its plugins) answers for the inbox of its path's inbox_identifier.
 * `readEpoch()` is stamped on the request before the first read (`request.clientReadEpoch`): a
 * grouped write reads its scope again when a group settled after that (group-commit.ts).
 */
export function installInboxScope(scope: FastifyInstance, db: Db, readEpoch: () => number) {
  scope.decorateRequest('clientInbox', null as unknown as InboxRow);
  scope.decorateRequest('clientReadEpoch', 0);
  scope.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
    request.clientReadEpoch = readEpoch();
    const params = request.params as PathParams;
    // A conversation-level route's three levels in one read where it finds them (the contact and
    // conversation hooks then have theirs already); anything else level by level.
    const whole = conversationScopeAtOnce(db, params);
    if (whole) {
      request.clientInbox = whole.inbox;
      request.clientContact = { inbox: whole.inbox, contactInbox: whole.contactInbox, contact: whole.contact };
      request.clientConversation = whole;
    } else request.clientInbox = inboxScope(db, params);
    done();
  });
}

/** Inside the inbox scope: every route answers for the contact of its path's contact_identifier. */
export function installContactScope(scope: FastifyInstance, db: Db) {
  scope.decorateRequest('clientContact', null as unknown as ClientContactScope);
  scope.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
    // Null (the decoration's default) unless the inbox scope read the whole conversation scope.
    if ((request.clientContact as ClientContactScope | null) === null) request.clientContact = contactScope(db, request.clientInbox, request.params as PathParams);
    done();
  });
}

/** Inside the contact scope: every route answers for the contact's conversation of its path's conversation_id. */
export function installConversationScope(scope: FastifyInstance, db: Db) {
  scope.decorateRequest('clientConversation', null as unknown as ClientConversationScope);
  scope.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
    if ((request.clientConversation as ClientConversationScope | null) === null) request.clientConversation = conversationScope(db, request.clientContact, request.params as PathParams);
    done();
  });
}

/** Writes made by a contact: the performer is the contact (no agent performer on live events). */
export function contactWrite(deps: PublicDeps, contact: ContactRow): WriteContext {
  return { db: deps.db, bus: deps.bus, now: deps.clock(), performer: { type: 'contact', id: contact.id } };
}
