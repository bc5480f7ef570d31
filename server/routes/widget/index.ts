// The Widget API (chatwoot-compat §1.17) as a scoped plugin: the widget scope's hook (./scope.ts)
// resolves the website_token's inbox and the X-Auth-Token's visitor for every route inside, so a
// handler reads `request.widgetInbox` and `visitorOf(request)`. The widget page (`GET /widget`,
// ./page.ts) is outside this URL and installs the scope for the inbox alone.
import type { FastifyInstance } from 'fastify';
import { widgetConversationRoutes } from './conversations';
import type { WidgetDeps } from './scope';
import { installWidgetScope } from './scope';
import { widgetSessionRoutes } from './session';

/** Where the family is registered (app.ts). */
export const WIDGET = '/api/v1/widget';

export function widgetRoutes(deps: WidgetDeps) {
  return async (widget: FastifyInstance) => {
    installWidgetScope(widget, deps, { visitor: true });
    widgetSessionRoutes(widget, deps);
    widgetConversationRoutes(widget, deps);
  };
}
