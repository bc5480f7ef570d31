// What an agent does to a conversation (chatwoot-compat §1.2): status (incl. snooze), priority,
// typing, read markers, custom attributes, transcript. Agent bots may call the ones the reference
// service lets them (toggle_status, toggle_priority, update, custom_attributes).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { attributesObject, blankAsAbsent, boolish, emailFormat, oneOf } from '../../http/body';
import { invalid } from '../../http/errors';
import { etag, ifMatchOf } from '../../http/preconditions';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { conversationParams, visibleConversation } from '../../http/scope';
import { conversationRest } from '../../presenters/conversation';
import { iso } from '../../presenters/time';
import type { ConversationChange } from '../../store/conversation-updates';
import { applyConversationChange, updateConversation } from '../../store/conversation-updates';
import { requireRevision, revisionOf } from '../../store/conversations';
import { markAgentSeen, markUnread } from '../../store/read-markers';
import { recordTranscriptRequest } from '../../store/transcript-requests';
import { commit } from '../../store/writes';
import { memberOf } from '../account-scope';
import type { RouteDeps } from '../deps';
import { writeContext } from '../deps';

// The agent's writes here accept If-Match (SYNC-PROTOCOL.md): checked inside the write's transaction,
// 412 with the current ETag when it does not match; every success answers the new ETag.

const statuses = ['open', 'resolved', 'pending', 'snoozed'] as const;
const priority = z.preprocess((p) => (p === '' ? null : p), oneOf(['low', 'medium', 'high', 'urgent']).nullable());

/** `snoozed_until` is epoch seconds (a number or digit string), as the reference parses it; ISO 8601 also accepted. */
const snoozedUntil = z
  .union([z.number().int().min(0).max(253_402_300_799), z.string().max(40)])
  .transform((v, ctx) => {
    const ms = typeof v === 'number' || /^\d{1,12}$/.test(v) ? Number(v) * 1000 : Date.parse(v);
    if (!Number.isFinite(ms) || ms < 0 || ms > 253_402_300_799_000) {
      ctx.addIssue({ code: 'custom', message: 'must be a time in epoch seconds' });
      return z.NEVER;
    }
    return ms;
  });

const toggleStatusBody = z.object({ status: blankAsAbsent(oneOf(statuses)), snoozed_until: blankAsAbsent(z.union([snoozedUntil, z.null()])) });
const priorityBody = z.object({ priority: priority.optional() });
const typingBody = z.object({ typing_status: oneOf(['on', 'off']), is_private: boolish.optional() });
const customAttributesBody = z.object({ custom_attributes: attributesObject });
const transcriptBody = z.object({ email: z.string().max(320).regex(emailFormat, 'is not a valid email address') });

export function conversationActionRoutes(deps: RouteDeps) {
  const { db } = deps;
  const bot = { access: 'member-or-bot' as const };
  const conversationOf = (request: FastifyRequest) => visibleConversation(db, request.caller, request.params);
  /** The conversation (404, 401) and the If-Match header (400) before the body is judged. */
  const conversationAndPrecondition = async (request: FastifyRequest) => {
    conversationOf(request);
    ifMatchOf(request);
  };
  /** The conversation alone before the body. */
  const conversationFirst = async (request: FastifyRequest) => {
    conversationOf(request);
  };

  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();
    const C = '/conversations/:conversation_id';
    const params = conversationParams;

    app.post(`${C}/toggle_status`, { config: bot, schema: { params, body: toggleStatusBody }, preValidation: conversationAndPrecondition }, async (request, reply) => {
      const { caller } = request;
      const c = conversationOf(request);
      const precondition = ifMatchOf(request);
      const body = request.body;
      const ctx = writeContext(deps, caller);
      const handoff = caller.bot !== null && c.status === 'pending' && body.status === 'open';
      const row = commit(ctx, (events) => {
        requireRevision(db, c.id, precondition);
        // Without a status it toggles: open → resolved, anything else → open.
        const status = body.status || (c.status === 'open' ? 'resolved' : 'open');
        const change: ConversationChange = { status };
        if (status === 'snoozed') change.snoozedUntil = typeof body.snoozed_until === 'number' ? body.snoozed_until : null;
        let next = applyConversationChange(ctx, c, change, events);
        // The reference service self-assigns an agent who leaves a conversation open.
        if (next.status === 'open' && caller.role === 'agent' && caller.user) next = applyConversationChange(ctx, next, { assignee: { userId: caller.user.id } }, events);
        return next;
      });
      reply.header('ETag', etag(revisionOf(db, c.id)));
      return { payload: { success: handoff ? null : true, conversation_id: row.display_id, current_status: row.status, snoozed_until: iso(row.snoozed_until) } };
    });

    app.post(`${C}/toggle_priority`, { config: bot, schema: { params, body: priorityBody }, preValidation: conversationAndPrecondition }, async (request, reply) => {
      const c = conversationOf(request);
      updateConversation(writeContext(deps, request.caller), c, { priority: request.body.priority ?? null }, ifMatchOf(request));
      return reply.code(200).header('ETag', etag(revisionOf(db, c.id))).send();
    });

    // Only `priority` is updatable here (chatwoot-compat §1.2); other keys are ignored.
    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method,
        url: C,
        config: bot,
        schema: { params, body: priorityBody },
        preValidation: conversationAndPrecondition,
        handler: async (request, reply) => {
          const c = conversationOf(request);
          const precondition = ifMatchOf(request);
          const { priority } = request.body;
          if (priority === undefined) requireRevision(db, c.id, precondition);
          const row = priority === undefined ? c : updateConversation(writeContext(deps, request.caller), c, { priority }, precondition);
          reply.header('ETag', etag(row.revision));
          return conversationRest(db, row, request.caller);
        },
      });
    }

    app.post(`${C}/toggle_typing_status`, { schema: { params, body: typingBody }, preValidation: conversationFirst }, async (request, reply) => {
      const c = conversationOf(request);
      deps.bus.emit({
        name: request.body.typing_status === 'on' ? 'conversation.typing_on' : 'conversation.typing_off',
        accountId: c.account_id,
        conversationId: c.id,
        typer: request.caller.performer,
        isPrivate: request.body.is_private ?? false,
      });
      return reply.code(200).send();
    });

    // Read markers are written without events, as the reference service does (update_column).
    app.post(`${C}/update_last_seen`, { schema: { params } }, async (request, reply) => {
      const scope = memberOf(request);
      const row = markAgentSeen(db, conversationOf(request), scope.user.id, deps.clock(), ifMatchOf(request));
      reply.header('ETag', etag(row.revision));
      return conversationRest(db, row, scope);
    });

    // Marks unread: "last seen" moves to one second before the newest incoming message.
    app.post(`${C}/unread`, { schema: { params } }, async (request, reply) => {
      const row = markUnread(db, conversationOf(request), ifMatchOf(request));
      reply.header('ETag', etag(row.revision));
      return conversationRest(db, row, memberOf(request));
    });

    // Replaces the whole hash (contact custom attributes merge; conversation ones do not).
    app.post(`${C}/custom_attributes`, { config: bot, schema: { params, body: customAttributesBody }, preValidation: conversationAndPrecondition }, async (request, reply) => {
      const c = conversationOf(request);
      const { custom_attributes } = request.body;
      updateConversation(writeContext(deps, request.caller), c, { customAttributes: custom_attributes }, ifMatchOf(request));
      reply.header('ETag', etag(revisionOf(db, c.id)));
      return { custom_attributes };
    });

    // This service has no mail transport: the request is recorded for whatever delivers mail.
    // No email at all is the reference's own message.
    app.post(
      `${C}/transcript`,
      {
        schema: { params, body: transcriptBody },
        preValidation: async (request) => {
          conversationOf(request);
          const { email } = request.body as { email?: unknown };
          if (email === undefined || email === null || email === '') throw invalid('email param missing', ['email']);
        },
      },
      async (request, reply) => {
        const c = conversationOf(request);
        recordTranscriptRequest(db, { accountId: c.account_id, conversationId: c.id, email: request.body.email, requestedBy: memberOf(request).user.id, now: deps.clock() });
        return reply.code(200).send();
      },
    );
  };
}
