// What an agent does to a conversation (chatwoot-compat §1.2): status (incl. snooze), priority,
// typing, read markers, custom attributes, transcript. Agent bots may call the ones the reference
// service lets them (toggle_status, toggle_priority, update, custom_attributes).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { stmt } from '../db/open';
import { attributesObject, blankAsAbsent, boolish, emailFormat, input, oneOf, parseBody } from '../http/body';
import { etag, ifMatchOf } from '../http/preconditions';
import { callerScoped, scoped, visibleConversation } from '../http/scope';
import { conversationRest } from '../presenters/conversation';
import { iso } from '../presenters/time';
import type { ConversationChange } from '../store/conversation-updates';
import { applyConversationChange, updateConversation } from '../store/conversation-updates';
import { requireRevision, revisionOf } from '../store/conversations';
import { markAgentSeen, markUnread } from '../store/read-markers';
import { commit } from '../store/writes';
import type { RouteDeps } from './deps';
import { writeContext } from './deps';

const C = '/api/v1/accounts/:account_id/conversations/:conversation_id';

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

export function conversationActionRoutes(app: FastifyInstance, deps: RouteDeps) {
  const { db } = deps;

  app.post(`${C}/toggle_status`, async (request, reply) => {
    const caller = callerScoped(db, request);
    const c = visibleConversation(db, caller, request.params);
    const precondition = ifMatchOf(request);
    const body = parseBody(toggleStatusBody, input(request));
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

  app.post(`${C}/toggle_priority`, async (request, reply) => {
    const caller = callerScoped(db, request);
    const c = visibleConversation(db, caller, request.params);
    const precondition = ifMatchOf(request);
    const body = parseBody(priorityBody, input(request));
    updateConversation(writeContext(deps, caller), c, { priority: body.priority ?? null }, precondition);
    return reply.code(200).header('ETag', etag(revisionOf(db, c.id))).send();
  });

  // Only `priority` is updatable here (chatwoot-compat §1.2); other keys are ignored.
  const update = async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = callerScoped(db, request);
    const c = visibleConversation(db, caller, request.params);
    const precondition = ifMatchOf(request);
    const body = parseBody(priorityBody, input(request));
    if (body.priority === undefined) requireRevision(db, c.id, precondition);
    const row = body.priority === undefined ? c : updateConversation(writeContext(deps, caller), c, { priority: body.priority }, precondition);
    reply.header('ETag', etag(row.revision));
    return conversationRest(db, row, caller);
  };
  app.patch(C, update);
  app.put(C, update);

  app.post(`${C}/toggle_typing_status`, async (request, reply) => {
    const scope = scoped(db, request);
    const c = visibleConversation(db, scope, request.params);
    const body = parseBody(typingBody, input(request));
    deps.bus.emit({
      name: body.typing_status === 'on' ? 'conversation.typing_on' : 'conversation.typing_off',
      accountId: c.account_id,
      conversationId: c.id,
      typer: scope.performer,
      isPrivate: body.is_private ?? false,
    });
    return reply.code(200).send();
  });

  // Read markers are written without events, as the reference service does (update_column).
  app.post(`${C}/update_last_seen`, async (request, reply) => {
    const scope = scoped(db, request);
    const c = visibleConversation(db, scope, request.params);
    const row = markAgentSeen(db, c, scope.user.id, deps.clock(), ifMatchOf(request));
    reply.header('ETag', etag(row.revision));
    return conversationRest(db, row, scope);
  });

  // Marks unread: "last seen" moves to one second before the newest incoming message.
  app.post(`${C}/unread`, async (request, reply) => {
    const scope = scoped(db, request);
    const c = visibleConversation(db, scope, request.params);
    const row = markUnread(db, c, ifMatchOf(request));
    reply.header('ETag', etag(row.revision));
    return conversationRest(db, row, scope);
  });

  // Replaces the whole hash (contact custom attributes merge; conversation ones do not).
  app.post(`${C}/custom_attributes`, async (request, reply) => {
    const caller = callerScoped(db, request);
    const c = visibleConversation(db, caller, request.params);
    const precondition = ifMatchOf(request);
    const body = parseBody(customAttributesBody, input(request));
    updateConversation(writeContext(deps, caller), c, { customAttributes: body.custom_attributes }, precondition);
    reply.header('ETag', etag(revisionOf(db, c.id)));
    return { custom_attributes: body.custom_attributes };
  });

  // This service has no mail transport: the request is recorded for whatever delivers mail.
  app.post(`${C}/transcript`, async (request, reply) => {
    const scope = scoped(db, request);
    const c = visibleConversation(db, scope, request.params);
    const raw = input(request);
    if (raw.email === undefined || raw.email === null || raw.email === '') return reply.code(422).send({ message: 'email param missing', attributes: ['email'] });
    const { email } = parseBody(transcriptBody, raw);
    stmt(db, 'INSERT INTO transcript_requests (account_id, conversation_id, email, requested_by, created_at) VALUES (?, ?, ?, ?, ?)').run(
      c.account_id,
      c.id,
      email,
      scope.user.id,
      deps.clock(),
    );
    return reply.code(200).send();
  });
}
