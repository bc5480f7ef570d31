// Account collections the inbox app reads for its filters and panels: inboxes, agents, teams,
// labels, canned responses, and a contact with its conversations.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { AccountScope, UserRow } from '../http/auth';
import { visibleInboxIds } from '../http/auth';
import { notAuthorized, notFound } from '../http/errors';
import { intString, parseParams } from '../http/params';
import { conversationRest } from '../presenters/conversation';
import type { InboxRow } from '../presenters/inbox';
import { inboxFull } from '../presenters/inbox';
import type { ContactRow, TeamRow } from '../presenters/people';
import { agentPartial, contactRest, teamPartial } from '../presenters/people';
import { iso } from '../presenters/time';
import type { ConversationRow } from '../store/conversations';
import { baseUrlOf, scoped } from '../http/scope';
import type { RouteDeps } from './deps';

const idParams = z.object({ account_id: intString, id: intString });

export function visibleInbox(db: Db, scope: AccountScope, id: number): InboxRow {
  const row = stmt(db, 'SELECT * FROM inboxes WHERE id = ? AND account_id = ?').get(id, scope.accountId) as InboxRow | undefined;
  if (!row) throw notFound();
  if (!visibleInboxIds(db, scope).includes(row.id)) throw notAuthorized();
  return row;
}

export function contactInAccount(db: Db, scope: AccountScope, id: number): ContactRow {
  const row = stmt(db, 'SELECT * FROM contacts WHERE id = ? AND account_id = ?').get(id, scope.accountId) as ContactRow | undefined;
  if (!row) throw notFound();
  return row;
}

export function accountResourceRoutes(app: FastifyInstance, { db }: RouteDeps) {
  const A = '/api/v1/accounts/:account_id';

  app.get(`${A}/inboxes`, async (request) => {
    const scope = scoped(db, request);
    const ids = visibleInboxIds(db, scope);
    const rows = stmt(db, 'SELECT * FROM inboxes WHERE account_id = ? ORDER BY id').all(scope.accountId) as InboxRow[];
    const opts = { isAdmin: scope.role === 'administrator', baseUrl: baseUrlOf(request) };
    return { payload: rows.filter((r) => ids.includes(r.id)).map((r) => inboxFull(r, opts)) };
  });

  app.get(`${A}/inboxes/:id`, async (request) => {
    const scope = scoped(db, request);
    const { id } = parseParams(idParams, request.params, 'path parameter');
    return inboxFull(visibleInbox(db, scope, id), { isAdmin: scope.role === 'administrator', baseUrl: baseUrlOf(request) });
  });

  app.get(`${A}/agents`, async (request) => {
    const scope = scoped(db, request);
    const users = stmt(db, 'SELECT u.* FROM users u JOIN account_users au ON au.user_id = u.id WHERE au.account_id = ? ORDER BY lower(u.name)').all(scope.accountId) as UserRow[];
    return users.map((u) => agentPartial(db, u, scope.accountId));
  });

  app.get(`${A}/teams`, async (request) => {
    const scope = scoped(db, request);
    const teams = stmt(db, 'SELECT * FROM teams WHERE account_id = ? ORDER BY id').all(scope.accountId) as TeamRow[];
    return teams.map((t) => teamPartial(db, t, scope.user.id));
  });

  app.get(`${A}/labels`, async (request) => {
    const scope = scoped(db, request);
    const labels = stmt(db, 'SELECT id, title, description, color, show_on_sidebar FROM labels WHERE account_id = ? ORDER BY title').all(scope.accountId) as {
      id: number;
      title: string;
      description: string;
      color: string;
      show_on_sidebar: number;
    }[];
    return { payload: labels.map((l) => ({ ...l, show_on_sidebar: l.show_on_sidebar === 1 })) };
  });

  app.get(`${A}/canned_responses`, async (request) => {
    const scope = scoped(db, request);
    const search = parseParams(z.object({ search: z.string().max(500).optional() }), request.query, 'query parameter').search?.trim().toLowerCase();
    const rows = stmt(db, 'SELECT * FROM canned_responses WHERE account_id = ? ORDER BY id').all(scope.accountId) as {
      id: number;
      account_id: number;
      short_code: string;
      content: string;
      created_at: number;
      updated_at: number;
    }[];
    // Ranked as the reference service: short_code prefix > short_code contains > content contains.
    const rank = (r: (typeof rows)[number]) =>
      !search ? 1 : r.short_code.toLowerCase().startsWith(search) ? 1 : r.short_code.toLowerCase().includes(search) ? 0.5 : r.content.toLowerCase().includes(search) ? 0.2 : 0;
    return rows
      .map((r) => ({ r, score: rank(r) }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score)
      .map(({ r }) => ({ id: r.id, content: r.content, short_code: r.short_code, account_id: r.account_id, created_at: iso(r.created_at), updated_at: iso(r.updated_at) }));
  });

  app.get(`${A}/contacts/:id`, async (request) => {
    const scope = scoped(db, request);
    const { id } = parseParams(idParams, request.params, 'path parameter');
    return { payload: contactRest(contactInAccount(db, scope, id)) };
  });

  app.get(`${A}/contacts/:id/conversations`, async (request) => {
    const scope = scoped(db, request);
    const { id } = parseParams(idParams, request.params, 'path parameter');
    contactInAccount(db, scope, id);
    const inboxes = visibleInboxIds(db, scope);
    const rows = (stmt(db, 'SELECT * FROM conversations WHERE contact_id = ? AND account_id = ? ORDER BY last_activity_at DESC').all(id, scope.accountId) as ConversationRow[])
      .filter((c) => inboxes.includes(c.inbox_id))
      .slice(0, 20);
    return { payload: rows.map((c) => conversationRest(db, c, scope)) };
  });
}
