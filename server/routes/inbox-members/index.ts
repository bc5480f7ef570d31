// An inbox's agents (chatwoot-compat §1.5 `A/inbox_members`): anyone who may see the inbox lists
// them; administrators add (POST), set the exact list (PATCH) or remove (DELETE) them, naming the
// inbox in the body. A user id that is not the account's is 401 `Invalid User IDs`, as the reference.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/open';
import { notFound, unauthorized } from '../../http/errors';
import { intString } from '../../http/params';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { accountParams } from '../../http/scope';
import { agentPartial } from '../../presenters/people';
import { addInboxMembers, inboxById, inboxMemberIds, removeInboxMembers, setInboxMembers } from '../../store/inboxes';
import { accountUserIds, userById } from '../../store/users';
import type { RouteDeps } from '../deps';
import { directoryChanged } from '../deps';
import { visibleInbox } from '../inboxes';

const userIds = z.array(intString).max(1000);
const membersBody = z.object({ inbox_id: intString, user_ids: userIds });
const inboxParams = accountParams.extend({ inbox_id: intString });

export function inboxMemberRoutes(deps: RouteDeps) {
  const { db } = deps;
  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();
    const agents = (db: Db, inboxId: number, accountId: number) =>
      inboxMemberIds(db, inboxId).flatMap((id) => {
        const user = userById(db, id);
        return user ? [agentPartial(db, user, accountId)] : [];
      });

    app.get('/inbox_members/:inbox_id', { schema: { params: inboxParams } }, async (request) => {
      const inbox = visibleInbox(db, request.caller, request.params.inbox_id);
      return { payload: agents(db, inbox.id, request.caller.accountId) };
    });

    const change = (apply: (inboxId: number, ids: number[]) => void, answer: 'members' | 'empty') =>
      ({
        config: { access: 'administrator' as const },
        schema: { body: membersBody },
        // The inbox before the list: an unknown inbox is 404 whatever else was sent.
        preValidation: async (request: { caller: { accountId: number }; body: unknown }) => {
          // A malformed or missing inbox_id is left to the body's validation (422).
          const parsed = z.object({ inbox_id: intString }).safeParse(request.body);
          if (parsed.success && !inboxById(db, request.caller.accountId, parsed.data.inbox_id)) throw notFound();
        },
        handler: async (request: { caller: { accountId: number }; body: z.output<typeof membersBody> }, reply: { code(n: number): { send(): unknown } }) => {
          const { inbox_id, user_ids } = request.body;
          const known = accountUserIds(db, request.caller.accountId, user_ids);
          if (known.length !== user_ids.length) throw unauthorized('Invalid User IDs');
          apply(inbox_id, known);
          // Who sees the inbox changed: its agents read their directory (and inboxes) again.
          directoryChanged(deps, request.caller.accountId, 'inbox');
          return answer === 'members' ? { payload: agents(db, inbox_id, request.caller.accountId) } : reply.code(200).send();
        },
      }) as const;

    app.post('/inbox_members', change((inbox, ids) => addInboxMembers(db, inbox, ids), 'members'));
    app.patch('/inbox_members', change((inbox, ids) => setInboxMembers(db, inbox, ids), 'members'));
    app.delete('/inbox_members', change((inbox, ids) => removeInboxMembers(db, inbox, ids), 'empty'));
  };
}
