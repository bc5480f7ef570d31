// Widget conversations and messages (chatwoot-compat §1.17). "The conversation" of a visitor is
// the latest one it can see (its own contact inbox's; for a verified visitor, those of all the
// contact's verified sessions in this inbox). Private notes and activity messages never show.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { notFound } from '../../http/errors';
import { contactBody, contactPatchOf } from '../../http/contact-fields';
import { messageBody, messageContent, typingStatus } from '../../http/message-fields';
import { intString, parseParams } from '../../http/params';
import { parseJsonBody } from '../../http/body';
import { inboxSettings } from '../../presenters/inbox';
import { contactRecord, publicMessage, widgetCreatedMessage } from '../../presenters/public';
import { epoch, iso } from '../../presenters/time';
import { visibleConversations } from '../../store/contact-inboxes';
import type { ContactInboxRow } from '../../store/contact-inboxes';
import { contactMessagePage } from '../../store/contact-messages';
import type { ConversationRow } from '../../store/conversations';
import { conversationById } from '../../store/conversations';
import { createConversation, createMessage, markContactLastSeen, setConversationStatus, updateContact } from '../../store/writes';
import type { VisitorSession, WidgetDeps } from './scope';
import { visitorOf, visitorWrite } from './scope';

const messagesQuery = z.object({ before: intString.optional(), after: z.union([z.literal('0'), intString]).optional() });
const createMessageBody = z.object({ message: messageBody.extend({ referer_url: z.string().max(2048).nullish(), timestamp: z.unknown().optional() }) });
const createConversationBody = z.object({
  contact: contactBody.pick({ name: true, email: true, phone_number: true }).nullish(),
  message: messageBody.extend({ referer_url: z.string().max(2048).nullish(), timestamp: z.unknown().optional() }).nullish(),
  custom_attributes: z.record(z.string(), z.unknown()).nullish(),
});
const typingBody = z.object({ typing_status: z.string().max(10).nullish() });

function latestConversation(deps: WidgetDeps, ci: ContactInboxRow): ConversationRow | undefined {
  const all = visibleConversations(deps.db, ci, 'widget');
  return all[all.length - 1];
}

function requireConversation(deps: WidgetDeps, session: VisitorSession): ConversationRow {
  const c = latestConversation(deps, session.contactInbox);
  if (!c) throw notFound();
  return c;
}

function newConversation(deps: WidgetDeps, session: VisitorSession, customAttributes: Record<string, unknown> = {}) {
  return createConversation(visitorWrite(deps, session.contact), {
    accountId: session.inbox.account_id,
    inboxId: session.inbox.id,
    contactId: session.contact.id,
    contactInboxId: session.contactInbox.id,
    customAttributes,
  });
}

/** In the widget scope: the visitor's conversation and its messages. */
export function widgetConversationRoutes(app: FastifyInstance, deps: WidgetDeps) {
  const { db } = deps;

  app.get('/conversations', async (request) => {
    const session = visitorOf(request);
    const c = latestConversation(deps, session.contactInbox);
    return c ? { id: c.display_id, inbox_id: c.inbox_id, contact_last_seen_at: epoch(c.contact_last_seen_at), status: c.status } : {};
  });

  app.post('/conversations', async (request) => {
    const session = visitorOf(request);
    const body = parseJsonBody(createConversationBody, request.body);
    const content = body.message?.content == null || body.message.content === '' ? undefined : messageContent(body.message.content);
    const patch = body.contact ? contactPatchOf(body.contact, { withIdentifier: false }) : {};
    const contact = updateContact(visitorWrite(deps, session.contact), session.contact, patch);
    const conversation = newConversation(deps, { ...session, contact }, body.custom_attributes ?? {});
    const echoId = body.message?.echo_id ?? undefined;
    const first = content
      ? createMessage(visitorWrite(deps, contact), { conversation, messageType: 0, content, sender: { type: 'Contact', id: contact.id }, ...(echoId ? { echoId } : {}) })
      : undefined;
    const fresh = conversationById(db, conversation.id)!;
    return {
      id: fresh.display_id,
      inbox_id: fresh.inbox_id,
      contact_last_seen_at: epoch(fresh.contact_last_seen_at),
      status: fresh.status,
      messages: first ? [publicMessage(db, first, fresh.display_id)] : [],
      custom_attributes: body.custom_attributes ?? {},
      contact: contactRecord(contact),
    };
  });

  app.post('/conversations/update_last_seen', async (request, reply) => {
    const session = visitorOf(request);
    markContactLastSeen(visitorWrite(deps, session.contact), requireConversation(deps, session));
    return reply.code(200).send();
  });

  app.post('/conversations/toggle_typing', async (request, reply) => {
    const session = visitorOf(request);
    const c = requireConversation(deps, session);
    const status = typingStatus(parseJsonBody(typingBody, request.body).typing_status);
    deps.bus.emit({
      name: status === 'on' ? 'conversation.typing_on' : 'conversation.typing_off',
      accountId: c.account_id,
      conversationId: c.id,
      typer: { type: 'contact', id: session.contact.id },
      isPrivate: false,
    });
    return reply.code(200).send();
  });

  // The reference service resolves on GET; POST is accepted too, for clients that prefer it.
  const toggleStatus = async (request: FastifyRequest, reply: FastifyReply) => {
    const session = visitorOf(request);
    setConversationStatus(visitorWrite(deps, session.contact), requireConversation(deps, session), 'resolved');
    return reply.code(200).send();
  };
  app.get('/conversations/toggle_status', toggleStatus);
  app.post('/conversations/toggle_status', toggleStatus);

  app.get('/messages', async (request) => {
    const session = visitorOf(request);
    const { before, after } = parseParams(messagesQuery, request.query, 'query parameter');
    const c = latestConversation(deps, session.contactInbox);
    if (!c) return { payload: [] };
    const page = contactMessagePage(db, c.id, before, after === undefined ? undefined : Number(after));
    return { payload: page.map((m) => publicMessage(db, m, c.display_id)), meta: { contact_last_seen_at: iso(c.contact_last_seen_at) } };
  });

  app.post('/messages', async (request) => {
    const session = visitorOf(request);
    const body = parseJsonBody(createMessageBody, request.body);
    const content = messageContent(body.message.content);
    const last = latestConversation(deps, session.contactInbox);
    const reopenable = inboxSettings(session.inbox).allow_messages_after_resolved;
    const conversation = last && (last.status !== 'resolved' || reopenable) ? last : newConversation(deps, session);
    const echoId = body.message.echo_id ?? undefined;
    const message = createMessage(visitorWrite(deps, session.contact), {
      conversation,
      messageType: 0,
      content,
      sender: { type: 'Contact', id: session.contact.id },
      ...(echoId === undefined ? {} : { echoId }),
    });
    return widgetCreatedMessage(db, message, conversation.display_id, echoId);
  });
}
