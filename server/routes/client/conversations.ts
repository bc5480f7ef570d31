// Client API: a contact's conversations and their messages (chatwoot-compat §1.16). Scoped by the
// two path identifiers only (no HMAC check); a conversation that is not the contact's is a 404.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { messageBody, messageContent, typingStatus } from '../../http/message-fields';
import { intString, parseParams } from '../../http/params';
import { parseJsonBody } from '../../http/body';
import { publicConversation, publicMessage } from '../../presenters/public';
import { contactMessagePage } from '../../store/contact-messages';
import { visibleConversations } from '../../store/contact-inboxes';
import { createConversation, createMessage, markContactLastSeen, setConversationStatus } from '../../store/writes';
import { CLIENT } from './contacts';
import type { PublicDeps } from './scope';
import { clientContact, clientConversation, contactWrite } from './scope';

const CONTACT = `${CLIENT}/contacts/:contact_identifier`;
const CONVERSATION = `${CONTACT}/conversations/:conversation_id`;

const createBody = z.object({ custom_attributes: z.record(z.string(), z.unknown()).nullish() });
const typingBody = z.object({ typing_status: z.string().max(10).nullish() });
/** Only `before` is a cursor here; anything else in the query is ignored (chatwoot-compat §7). */
const messagesQuery = z.object({ before: intString.optional() });
export function clientConversationRoutes(app: FastifyInstance, deps: PublicDeps) {
  const { db } = deps;

  app.get(`${CONTACT}/conversations`, async (request) => {
    const { contactInbox, contact } = clientContact(db, request);
    return visibleConversations(db, contactInbox, 'client').map((c) => publicConversation(db, c, contact));
  });

  app.post(`${CONTACT}/conversations`, async (request) => {
    const { inbox, contactInbox, contact } = clientContact(db, request);
    const body = parseJsonBody(createBody, request.body);
    const conversation = createConversation(contactWrite(deps, contact), {
      accountId: inbox.account_id,
      inboxId: inbox.id,
      contactId: contact.id,
      contactInboxId: contactInbox.id,
      customAttributes: body.custom_attributes ?? {},
    });
    return publicConversation(db, conversation, contact);
  });

  app.get(CONVERSATION, async (request) => {
    const { conversation, contact } = clientConversation(db, request);
    return publicConversation(db, conversation, contact);
  });

  app.post(`${CONVERSATION}/toggle_status`, async (request) => {
    const { conversation, contact } = clientConversation(db, request);
    // A contact can only resolve; resolving a resolved conversation changes nothing.
    const next = setConversationStatus(contactWrite(deps, contact), conversation, 'resolved');
    return publicConversation(db, next, contact);
  });

  app.post(`${CONVERSATION}/toggle_typing`, async (request, reply) => {
    const { conversation, contact } = clientConversation(db, request);
    const status = typingStatus(parseJsonBody(typingBody, request.body).typing_status);
    deps.bus.emit({
      name: status === 'on' ? 'conversation.typing_on' : 'conversation.typing_off',
      accountId: conversation.account_id,
      conversationId: conversation.id,
      typer: { type: 'contact', id: contact.id },
      isPrivate: false,
    });
    return reply.code(200).send();
  });

  app.post(`${CONVERSATION}/update_last_seen`, async (request, reply) => {
    const { conversation, contact } = clientConversation(db, request);
    markContactLastSeen(contactWrite(deps, contact), conversation);
    return reply.code(200).send();
  });

  app.get(`${CONVERSATION}/messages`, async (request) => {
    const { conversation } = clientConversation(db, request);
    const { before } = parseParams(messagesQuery, request.query, 'query parameter');
    return contactMessagePage(db, conversation.id, before).map((m) => publicMessage(db, m, conversation.display_id));
  });

  app.post(`${CONVERSATION}/messages`, async (request) => {
    const { conversation, contact } = clientConversation(db, request);
    const body = parseJsonBody(messageBody, request.body);
    const content = messageContent(body.content);
    const echoId = body.echo_id ?? undefined;
    const message = createMessage(contactWrite(deps, contact), {
      conversation,
      messageType: 0,
      content,
      sender: { type: 'Contact', id: contact.id },
      ...(echoId === undefined ? {} : { echoId }),
    });
    return { ...publicMessage(db, message, conversation.display_id), ...(echoId === undefined ? {} : { echo_id: echoId }) };
  });
}
