// Integration apps (chatwoot-compat §1.15 `A/integrations/*`): `GET integrations/apps` lists what an
// installation offers, `{payload: [app]}` in the reference's app shape. This service offers one: account
// webhooks (their own endpoints, `A/webhooks`), enabled once the account has one. Hooks of other apps
// (`integrations/hooks`) are not offered.
import type { FastifyInstance } from 'fastify';
import { accountHasWebhooks } from '../../store/webhooks';
import type { RouteDeps } from '../deps';

export function integrationRoutes(deps: RouteDeps) {
  return async (app: FastifyInstance) => {
    app.get('/integrations/apps', async (request) => ({
      payload: [
        {
          id: 'webhook',
          name: 'Webhooks',
          description: 'Events in your account (messages, conversations, contacts) sent to URLs you choose, as JSON.',
          hook_type: 'account',
          enabled: accountHasWebhooks(deps.db, request.caller.accountId),
          allow_multiple_hooks: true,
          action: '/webhooks',
          hooks: [],
        },
      ],
    }));
  };
}
