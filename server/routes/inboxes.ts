// Inboxes (spec: Resources → Inbox; chatwoot-compat §1.5): agents see only the inboxes they are
// members of; credentials (hmac_token) only administrators.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { Caller } from '../http/auth';
import { visibleInboxIds } from '../http/auth';
import { notAuthorized, notFound } from '../http/errors';
import { baseUrlOf, pathId, scoped } from '../http/scope';
import type { InboxRow } from '../presenters/inbox';
import { inboxFull } from '../presenters/inbox';
import type { RouteDeps } from './deps';

const A = '/api/v1/accounts/:account_id';

/** An inbox of the account: 404 if not there, 401 if the caller is not one of its agents. */
function visibleInbox(db: Db, caller: Caller, id: number): InboxRow {
  const row = stmt(db, 'SELECT * FROM inboxes WHERE id = ? AND account_id = ?').get(id, caller.accountId) as InboxRow | undefined;
  if (!row) throw notFound();
  if (!visibleInboxIds(db, caller).includes(row.id)) throw notAuthorized();
  return row;
}

export function inboxRoutes(app: FastifyInstance, { db }: RouteDeps) {
  app.get(`${A}/inboxes`, async (request) => {
    const scope = scoped(db, request);
    const ids = visibleInboxIds(db, scope);
    const rows = stmt(db, 'SELECT * FROM inboxes WHERE account_id = ? ORDER BY id').all(scope.accountId) as InboxRow[];
    const opts = { isAdmin: scope.role === 'administrator', baseUrl: baseUrlOf(request) };
    return { payload: rows.filter((r) => ids.includes(r.id)).map((r) => inboxFull(r, opts)) };
  });

  app.get(`${A}/inboxes/:id`, async (request) => {
    const scope = scoped(db, request);
    return inboxFull(visibleInbox(db, scope, pathId(request)), { isAdmin: scope.role === 'administrator', baseUrl: baseUrlOf(request) });
  });
}
