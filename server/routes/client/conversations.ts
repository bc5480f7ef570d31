// Client API: a contact's conversations and their messages (chatwoot-compat §1.16). Scoped by the
// two path identifiers only (no HMAC check); a conversation that is not the contact's is a 404.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { messageBody, messageContent, typingStatus } from '../../http/message-fields';
import { intString, parseParams } from '../../http/params';
import { parseJsonBody } from '../../http/body';
import { invalid, notFound } from '../../http/errors';
import { publicConversation, publicMessage } from '../../presenters/public';
import { contactMessagePage } from '../../store/contact-messages';
import { visibleConversations } from '../../store/contact-inboxes';
import { messageOf, updateMessage } from '../../store/message-updates';
import { createConversation, createMessage, markContactLastSeen, setConversationStatus } from '../../store/writes';
import type { GroupCommit } from '../../store/group-commit';
import type { PublicDeps } from './scope';
import { contactWrite, resolveConversationScope } from './scope';

const createBody = z.object({ custom_attributes: z.record(z.string(), z.unknown()).nullish() });
const typingBody = z.object({ typing_status: z.string().max(10).nullish() });
/** Only `before` is a cursor here; anything else in the query is ignored (chatwoot-compat §7). */
const messagesQuery = z.object({ before: intString.optional() });
const messageParams = z.object({ message_id: intString });
const submittedBody = z.object({
  submitted_values: z.union([z.record(z.string().max(100), z.unknown()), z.array(z.record(z.string().max(100), z.unknown())).max(100)]).refine((v) => JSON.stringify(v).length <= 65_536, 'is too large'),
});
const CSAT_WINDOW_MS = 14 * 86_400_000;
/** In the contact scope: the contact's conversations, listed and created. */
export function contactConversationRoutes(app: FastifyInstance, deps: PublicDeps) {
  const { db } = deps;

  app.get('/conversations', async (request) => {
    const { contactInbox, contact } = request.clientContact;
    return visibleConversations(db, contactInbox, 'client').map((c) => publicConversation(db, c, contact));
  });

  app.post('/conversations', async (request) => {
    const { inbox, contactInbox, contact } = request.clientContact;
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
}

/** In the conversation scope: the conversation, its actions and its messages. */
export function clientConversationRoutes(app: FastifyInstance, deps: PublicDeps, group: GroupCommit) {
  const { db } = deps;

  app.get('/', async (request) => {
    const { conversation, contact } = request.clientConversation;
    return publicConversation(db, conversation, contact);
  });

  app.post('/toggle_status', async (request) => {
    const { conversation, contact } = request.clientConversation;
    // A contact can only resolve; resolving a resolved conversation changes nothing.
    const next = setConversationStatus(contactWrite(deps, contact), conversation, 'resolved');
    return publicConversation(db, next, contact);
  });

  app.post('/toggle_typing', async (request, reply) => {
    const { conversation, contact } = request.clientConversation;
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

  app.post('/update_last_seen', async (request, reply) => {
    const { conversation, contact } = request.clientConversation;
    markContactLastSeen(contactWrite(deps, contact), conversation);
    return reply.code(200).send();
  });

  app.get('/messages', async (request) => {
    const { conversation } = request.clientConversation;
    const { before } = parseParams(messagesQuery, request.query, 'query parameter');
    return contactMessagePage(db, conversation.id, before).map((m) => publicMessage(db, m, conversation.display_id));
  });

  // A contact's message create is the family's hot path: the creates of one event-loop turn commit
  // as one transaction (store/group-commit.ts), each answered once it has committed. The body is
  // judged first (a 422 is answered at once); the scope's rows are read again at the write when
  // they may have changed since the hooks read them (same answers as a create that ran alone).
  app.post('/messages', (request) => {
    const body = parseJsonBody(messageBody, request.body);
    const content = messageContent(body.content);
    const echoId = body.echo_id ?? undefined;
    return group.submit({
      readEpoch: request.clientReadEpoch,
      prepare: (fresh) => {
        const { conversation, contact } = fresh ? resolveConversationScope(db, request.params) : request.clientConversation;
        return {
          // The rows a create changes that the events' payloads read.
          keys: [`conversation:${conversation.id}`, `contact:${contact.id}`],
          run: () => {
            const message = createMessage(contactWrite(deps, contact), {
              conversation,
              messageType: 0,
              content,
              sender: { type: 'Contact', id: contact.id },
              ...(echoId === undefined ? {} : { echoId }),
            });
            // The sender is the contact read for this write; the create changed only its last_activity_at, which the shape leaves out.
            return { ...publicMessage(db, message, conversation.display_id, contact), ...(echoId === undefined ? {} : { echo_id: echoId }) };
          },
        };
      },
    });
  });

  // A contact's answer to an interactive message (chatwoot-compat §1.16): `submitted_values` (a CSAT
  // survey's `{csat_survey_response: {rating, feedback_message}}`, or a form's list of values) stored in
  // the message's content_attributes, emitting message.updated. Private notes and activity messages are
  // not the contact's to answer (404); a CSAT survey older than 14 days is 422, as the reference.
  for (const method of ['PATCH', 'PUT'] as const) {
    app.route({
      method,
      url: '/messages/:message_id',
      handler: async (request) => {
        const { conversation, contact } = request.clientConversation;
        const { message_id } = parseParams(messageParams, request.params, 'path parameter');
        const message = messageOf(db, conversation.id, message_id);
        if (!message || message.private === 1 || message.message_type === 2) throw notFound();
        const { submitted_values } = parseJsonBody(submittedBody, request.body);
        if (message.content_type === 'input_csat' && deps.clock() - message.created_at > CSAT_WINDOW_MS) {
          throw invalid('You cannot update the CSAT survey after 14 days', ['submitted_values']);
        }
        const updated = updateMessage(contactWrite(deps, contact), conversation, message, { contentAttributes: { submitted_values } });
        return publicMessage(db, updated, conversation.display_id);
      },
    });
  }
}

