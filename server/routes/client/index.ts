// The Client API (chatwoot-compat §1.16) as a tree of scoped plugins, one level per path
// identifier: each level's hook resolves its identifier for every route inside it (./scope.ts), so
// a handler reads `request.clientInbox`, `request.clientContact` or `request.clientConversation`.
import type { FastifyInstance } from 'fastify';
import { GroupCommit } from '../../store/group-commit';
import { clientContactRoutes, clientInboxRoutes } from './contacts';
import { clientConversationRoutes, contactConversationRoutes } from './conversations';
import type { PublicDeps } from './scope';
import { installContactScope, installConversationScope, installInboxScope } from './scope';

/** Where the family is registered (app.ts): under PUBLIC_API, the prefix its CORS covers (http/cors.ts). */
export const PUBLIC_API = '/public/api';
export const CLIENT = '/v1/inboxes/:inbox_identifier';

export function clientRoutes(deps: PublicDeps) {
  // The message creates of one event-loop turn commit together (store/group-commit.ts).
  const group = new GroupCommit(deps.db, deps.bus);
  return async (inbox: FastifyInstance) => {
    installInboxScope(inbox, deps.db, () => group.epoch);
    clientInboxRoutes(inbox, deps);
    await inbox.register(
      async (contact) => {
        installContactScope(contact, deps.db);
        await clientContactRoutes(contact, deps);
        contactConversationRoutes(contact, deps);
        await contact.register(
          async (conversation) => {
            installConversationScope(conversation, deps.db);
            clientConversationRoutes(conversation, deps, group);
          },
          { prefix: '/conversations/:conversation_id' },
        );
      },
      { prefix: '/contacts/:contact_identifier' },
    );
  };
}
