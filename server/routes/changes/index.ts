// The changes feed (SYNC-PROTOCOL.md, "The changes feed"), beyond the spec: what changed in the
// conversations and messages the caller may read since a cursor, in one order, so a client catches up
// after a gap (sleep, a lost socket) without reading every list again. Visibility is that of
// GET A/conversations/{id} and its messages: an agent sees the inboxes they are a member of.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { visibleInboxIds } from '../../http/auth';
import { badRequest } from '../../http/errors';
import { intString } from '../../http/params';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { conversationRest } from '../../presenters/conversation';
import { messageRest } from '../../presenters/message';
import { changeSequence, changesSince } from '../../store/changes';
import { memberOf } from '../account-scope';
import type { RouteDeps } from '../deps';

const MAX_LIMIT = 1000;
const changesQuery = z.object({
  since: z.string().max(100).optional(),
  limit: intString.refine((n) => n <= MAX_LIMIT, `must be at most ${MAX_LIMIT}`).optional(),
});

/** `<epoch>.<sequence value>`: opaque to clients. */
const CURSOR = /^([0-9a-f]{16})\.(\d{1,15})$/;
const cursorOf = (epoch: string, value: number) => `${epoch}.${value}`;

export function changeRoutes(deps: RouteDeps) {
  const { db } = deps;
  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();

    app.get('/changes', { schema: { querystring: changesQuery } }, async (request) => {
      const scope = memberOf(request);
      const query = request.query;
      const sequence = changeSequence(db);
      if (query.since === undefined) {
        return { meta: { cursor: cursorOf(sequence.epoch, sequence.value), more: false }, payload: { conversations: [], messages: [], removed: [] } };
      }
      const match = CURSOR.exec(query.since);
      // A cursor from another database (or one reset since), or ahead of this one's sequence, was not
      // issued here: the client must start over rather than silently miss changes.
      if (!match || match[1] !== sequence.epoch || Number(match[2]) > sequence.value) throw badRequest('Invalid query parameter: since: not a cursor this service issued');
      const page = changesSince(db, scope.accountId, visibleInboxIds(db, scope), Number(match[2]), query.limit ?? MAX_LIMIT);
      return {
        meta: { cursor: cursorOf(sequence.epoch, page.next), more: page.more },
        payload: {
          // The REST conversation, plus its revision (the ETag's value) so the client can write with If-Match.
          conversations: page.conversations.map((c) => ({ ...conversationRest(db, c, scope), revision: c.revision })),
          messages: page.messages.map((m) => messageRest(db, m, m.display_id)),
          removed: page.removals.map((r) => r.display_id),
        },
      };
    });
  };
}
