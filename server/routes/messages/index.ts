// A conversation's messages: history by id cursors, sending (replies, private notes, attachments
// metadata), and the reference service's soft delete.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/open';
import { json } from '../../db/open';
import { userById } from '../../store/users';
import { attributesObject, boolish, input, oneOf, parseBody } from '../../http/body';
import { forbidden, invalid, notFound } from '../../http/errors';
import { createOnce, formMaterial, keyedRequest, replayed } from '../../http/idempotency';
import { intString, parseParams } from '../../http/params';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { baseUrlOf, conversationParams, visibleConversation } from '../../http/scope';
import { messageRest } from '../../presenters/message';
import { messagePage } from '../../store/messages';
import { channelTypeOf } from '../../store/inboxes';
import { contactPush, userPush } from '../../presenters/people';
import { contactById } from '../../store/contacts';
import { iso } from '../../presenters/time';
import type { ConversationRow } from '../../store/conversations';
import { messageOf, softDeleteMessage, updateMessage } from '../../store/message-updates';
import { labelsOf } from '../../store/conversations';
import { attachmentOfUpload, extensionOf, fileTypeOf, storeUploadedFile, uploadByKey } from '../../store/uploads';
import { acceptFileForms, readFileForm } from '../../http/file-form';
import { MAX_UPLOAD_BYTES } from '../uploads';
import type { NewAttachment } from '../../store/uploads';
import { commit, insertMessage } from '../../store/writes';
import { memberOf } from '../account-scope';
import type { RouteDeps } from '../deps';
import { writeContext } from '../deps';

const A = '/conversations/:conversation_id/messages';
const messagesQuery = z.object({ before: intString.optional(), after: z.union([z.literal('0'), intString]).optional() });
const messageParams = z.object({ account_id: intString, conversation_id: intString, id: intString });
const STATUSES = ['sent', 'delivered', 'read', 'failed'];
const statusBody = z.object({ status: z.string().max(50).optional(), external_error: z.string().max(2000).optional() });

const contentTypes = ['text', 'input_text', 'input_textarea', 'input_email', 'input_select', 'cards', 'form', 'article', 'incoming_email', 'input_csat', 'integrations', 'sticker', 'voice_call'] as const;
const messageTypes = { incoming: 0, outgoing: 1, activity: 2, template: 3 } as const;
const httpUrl = z.string().max(2048).regex(/^https?:\/\/[^\s]+$/i, 'must be an http(s) URL');

/** Attachment metadata (the bytes stay wherever `data_url` points), or the blob key of an upload. */
const attachmentInput = z.union([
  z.string().min(1).max(200),
  z.object({
    file_type: z.enum(['image', 'audio', 'video', 'file', 'location', 'fallback']).optional(),
    content_type: z.string().max(255).optional(),
    file_name: z.string().max(255).optional(),
    extension: z.string().max(10).optional(),
    file_size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    data_url: httpUrl.optional(),
    thumb_url: httpUrl.optional(),
    width: z.number().int().min(0).max(100_000).optional(),
    height: z.number().int().min(0).max(100_000).optional(),
    fallback_title: z.string().max(255).optional(),
  }),
]);

const createBody = z.object({
  content: z.string().max(150_000, 'is too long (maximum is 150000 characters)').nullish(),
  private: boolish.optional(),
  message_type: z.union([oneOf(['incoming', 'outgoing', 'activity', 'template']), z.number().int().min(0).max(3)]).optional(),
  content_type: oneOf(contentTypes).optional(),
  content_attributes: z.union([attributesObject, z.string().max(65_536)]).optional(),
  echo_id: z.union([z.string().max(255), z.number()]).optional(),
  source_id: z.string().max(255).nullish(),
  attachments: z.array(attachmentInput).max(15, 'at most 15 attachments per message').optional(),
});

function contentAttributes(value: z.output<typeof createBody>['content_attributes']): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== 'string') return value;
  const parsed: unknown = (() => {
    try {
      return JSON.parse(value);
    } catch {
      return undefined;
    }
  })();
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalid('content_attributes must be a JSON object', ['content_attributes']);
  return parsed as Record<string, unknown>;
}

function resolveAttachments(db: Db, accountId: number, baseUrl: string, items: z.output<typeof attachmentInput>[]): NewAttachment[] {
  return items.map((item) => {
    if (typeof item === 'string') {
      const upload = uploadByKey(db, accountId, item);
      if (!upload) throw invalid(`attachments: no upload with key ${item.slice(0, 40)}`, ['attachments']);
      return attachmentOfUpload(upload, baseUrl);
    }
    if (!item.data_url && item.file_type !== 'location' && item.file_type !== 'fallback') throw invalid('attachments: data_url is required', ['attachments']);
    const fileType = item.file_type ?? fileTypeOf(item.content_type);
    return {
      fileType,
      extension: item.extension ?? extensionOf(item.file_name),
      dataUrl: item.data_url ?? null,
      thumbUrl: fileType === 'image' ? (item.thumb_url ?? item.data_url ?? null) : null,
      fileSize: item.file_size ?? null,
      width: item.width ?? null,
      height: item.height ?? null,
      fallbackTitle: item.fallback_title ?? item.file_name ?? null,
    };
  });
}

export function messageRoutes(deps: RouteDeps) {
  const { db } = deps;
  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();

    // The query is read here, after the conversation: an unknown conversation is 404 before a malformed cursor is 400.
    app.get(A, { schema: { params: conversationParams } }, async (request) => {
      const scope = memberOf(request);
      const c = visibleConversation(db, scope, request.params);
      const { before, after } = parseParams(messagesQuery, request.query, 'query parameter');
      const contact = contactById(db, c.contact_id);
      const assignee = c.assignee_id == null ? undefined : userById(db, c.assignee_id);
      return {
        meta: {
          labels: labelsOf(db, c.id),
          additional_attributes: json.parse(c.additional_attributes),
          contact: contact ? contactPush(contact) : null,
          ...(assignee ? { assignee: userPush(assignee) } : {}),
          agent_last_seen_at: iso(c.agent_last_seen_at),
          assignee_last_seen_at: iso(c.assignee_last_seen_at),
        },
        payload: messagePage(db, c.id, before, after === undefined ? undefined : Number(after)).map((m) => messageRest(db, m, c.display_id)),
      };
    });

    // No deduplication (spec: Retries): a retried send is a second message, unless the client sends an
    // Idempotency-Key (beyond the spec, http/idempotency.ts). JSON, a form, or multipart form data
    // with `attachments[]` files (chatwoot-compat §2.5), stored like uploads.
    await app.register(async (scope) => {
      await acceptFileForms(scope, { fileSize: MAX_UPLOAD_BYTES, files: 15 });
      // The body is read here, not by a schema: JSON, a form or multipart with files, and the
      // Idempotency-Key's fingerprint and replay come before the body is judged.
      scope.post(A, { config: { access: 'member-or-bot' }, schema: { params: conversationParams } }, async (request, reply) => {
        const caller = request.caller;
        const c = visibleConversation(db, caller, request.params);
        const form = await readFileForm(request, 'attachments[]');
        const files = form?.files ?? [];
        const keyed = keyedRequest(request, caller, form ? formMaterial(form) : request.body);
        const replay = replayed(deps, reply, keyed);
        if (replay) return replay;
        const body = parseBody(createBody, form ? { ...(request.query as object), ...form.params } : input(request));
        const messageType = typeof body.message_type === 'number' ? body.message_type : messageTypes[body.message_type ?? 'outgoing'];
        if (messageType === 0 && channelTypeOf(db, c.inbox_id) !== 'Channel::Api') throw invalid('message_type incoming is only allowed in API inboxes', ['message_type']);
        const attachments = resolveAttachments(db, caller.accountId, baseUrlOf(request), body.attachments ?? []);
        const attributes = contentAttributes(body.content_attributes);
        const content = body.content ?? null;
        if ((content === null || content.trim() === '') && attachments.length + files.length === 0 && Object.keys(attributes).length === 0) {
          throw invalid("content can't be blank", ['content']);
        }
        const sender =
          messageType === 0
            ? { type: 'Contact' as const, id: c.contact_id }
            : messageType === 2
              ? null
              : caller.user
                ? { type: 'User' as const, id: caller.user.id }
                : { type: 'AgentBot' as const, id: caller.bot!.id };
        const ctx = writeContext(deps, caller);
        return createOnce(deps, reply, keyed, () => {
          const row = commit(ctx, (events) => {
            const uploaded = files.map((f) => attachmentOfUpload(storeUploadedFile(db, { accountId: caller.accountId, ...f, now: ctx.now }), baseUrlOf(request)));
            return insertMessage(
              ctx,
              {
                conversation: c,
                messageType: messageType as 0 | 1 | 2 | 3,
                content,
                private: body.private ?? false,
                contentType: body.content_type ?? 'text',
                contentAttributes: attributes,
                sender,
                sourceId: body.source_id ?? null,
                attachments: [...attachments, ...uploaded],
                // Not stored (chatwoot-compat §2.4); the live message.created event carries it (§2.6).
                ...(body.echo_id === undefined ? {} : { echoId: String(body.echo_id) }),
              },
              events,
            );
          });
          return messageRest(db, row, c.display_id, body.echo_id === undefined ? undefined : String(body.echo_id));
        });
      });

      // A delivery status an API channel reports (chatwoot-compat §1.2): API inboxes only (403 elsewhere,
      // as the reference). A status that is not one of the four, or `delivered` after `read`, is ignored,
      // as the reference; `external_error` is kept only with `failed`. JSON or a form (the SDKs send one).
      for (const method of ['PATCH', 'PUT'] as const) {
        scope.route({
          method,
          url: `${A}/:id`,
          handler: async (request) => {
            const member = memberOf(request);
            const c = visibleConversation(db, member, request.params);
            const { id } = parseParams(messageParams, request.params, 'path parameter');
            const m = messageOf(db, c.id, id);
            if (!m) throw notFound();
            // The body is read first: a form that cannot be read is 400 whatever the inbox (Rack parses it before any controller).
            const form = await readFileForm(request, 'attachments[]');
            if (channelTypeOf(db, c.inbox_id) !== 'Channel::Api') throw forbidden('Message status update is only allowed for API inboxes');
            const { status, external_error } = parseBody(statusBody, form ? { ...(request.query as object), ...form.params } : input(request));
            const known = status !== undefined && STATUSES.includes(status) && !(status === 'delivered' && m.status === 'read');
            if (!known) return messageRest(db, m, c.display_id);
            const updated = updateMessage(writeContext(deps, member), c, m, {
              status,
              ...(status === 'failed' && external_error ? { contentAttributes: { external_error } } : {}),
            });
            return messageRest(db, updated, c.display_id);
          },
        });
      }
    });

    // Soft delete, as the reference service: the message stays in the timeline as "deleted". Deleting
    // it again is a 404 (spec: Retries), which tells a retrying client the delete already happened.
    app.delete(`${A}/:id`, async (request) => {
      const scope = memberOf(request);
      const c: ConversationRow = visibleConversation(db, scope, request.params);
      const { id } = parseParams(messageParams, request.params, 'path parameter');
      const m = messageOf(db, c.id, id);
      if (!m || json.parse(m.content_attributes).deleted === true) throw notFound();
      return messageRest(db, softDeleteMessage(writeContext(deps, scope), c, m), c.display_id);
    });
  };
}
