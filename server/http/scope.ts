// Resolving the caller and the records a request names, with the spec's answers: a malformed id is
// 400, a record missing or in another account is 404, a record the caller's role may not see is 401.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/open';
import type { ConversationRow } from '../store/conversations';
import { conversationByDisplayId } from '../store/conversations';
import type { AccountScope, Caller } from './auth';
import { authenticate, requireAccount, requireCaller, visibleInboxIds } from './auth';
import { notAuthorized, notFound } from './errors';
import { intString, parseParams } from './params';

export const accountParams = z.object({ account_id: intString });
export const idParams = accountParams.extend({ id: intString });
export const conversationParams = accountParams.extend({ conversation_id: intString });

/** A member user of the path's account (agent bots get 401 here: not a bot endpoint). */
export function scoped(db: Db, request: FastifyRequest): AccountScope {
  const { account_id } = parseParams(accountParams, request.params, 'path parameter');
  return requireAccount(db, authenticate(db, request), account_id);
}

/** A member user or an agent bot: only the bot-accessible endpoints use this (chatwoot-compat §0). */
export function callerScoped(db: Db, request: FastifyRequest): Caller {
  const { account_id } = parseParams(accountParams, request.params, 'path parameter');
  return requireCaller(db, authenticate(db, request), account_id);
}

/** The service's own address as the caller reached it (for links it hands out). */
export const baseUrlOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** The address for a link stored with a record: the configured public one, else the caller's. */
export const storedLinkBase = (deps: { publicUrl?: () => string | undefined }, request: FastifyRequest) => deps.publicUrl?.() ?? baseUrlOf(request);

/** The `:id` path parameter, validated. */
export function pathId(request: FastifyRequest): number {
  return parseParams(idParams, request.params, 'path parameter').id;
}

/** Whether the caller may see this conversation (an agent must be a member of its inbox). */
function canSee(db: Db, caller: Caller, c: ConversationRow): boolean {
  return c.account_id === caller.accountId && visibleInboxIds(db, caller).includes(c.inbox_id);
}

/** A conversation by its display id: 404 if it is not in the account, 401 if its inbox is not the caller's. */
export function visibleConversation(db: Db, caller: Caller, params: unknown): ConversationRow {
  const { conversation_id } = parseParams(conversationParams, params, 'path parameter');
  const c = conversationByDisplayId(db, caller.accountId, conversation_id);
  if (!c) throw notFound();
  if (!canSee(db, caller, c)) throw notAuthorized();
  return c;
}
