// Widget session start (POST /api/v1/widget/config) and the visitor's contact endpoints
// (chatwoot-compat §1.17). States and transitions (spec): config without a token, or with an
// invalid or expired one, creates a new visitor; with a valid token it returns the same visitor
// and the same token (there is no refresh: a token expires 180 days after it was issued).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contactBody } from '../../http/contact-fields';
import { parseJsonBody } from '../../http/body';
import { widgetContactSummary } from '../../presenters/public';
import { GLOBAL_CONFIG, visitorName, websiteChannelConfig, widgetContact } from '../../presenters/widget-config';
import { createContactWithInbox } from '../../store/contact-inboxes';
import { identifyVisitor } from '../../widget/identify';
import { baseUrlOf } from '../../http/scope';
import type { WidgetDeps } from './scope';
import { authTokenHeader, visitorOf } from './scope';

/** In the widget scope: the session start and the visitor's contact. */
export function widgetSessionRoutes(app: FastifyInstance, deps: WidgetDeps) {
  const { db } = deps;

  app.post('/config', { config: { widgetSessionStart: true } }, async (request) => {
    const inbox = request.widgetInbox;
    const presented = authTokenHeader(request);
    // The visitor of a valid token (the scope's hook), else a new one.
    const existing = request.visitor;
    let session = existing;
    let token = presented;
    if (!existing) {
      const created = createContactWithInbox(
        { db, bus: deps.bus, now: deps.clock() },
        { inbox, sourceId: randomUUID(), contact: { name: visitorName(), contactType: 'visitor' }, verified: false },
      );
      session = { inbox, ...created };
      token = await deps.tokens.issue({ source_id: created.contactInbox.source_id, inbox_id: inbox.id });
    }
    return {
      website_channel_config: websiteChannelConfig(inbox, { authToken: token!, apiHost: baseUrlOf(request), now: deps.clock() }),
      contact: widgetContact(session!.contact, session!.contactInbox.pubsub_token),
      global_config: GLOBAL_CONFIG,
    };
  });

  app.get('/contact', async (request) => {
    const { contact } = visitorOf(request);
    return widgetContactSummary(contact, true);
  });

  const update = async (request: FastifyRequest) => {
    const session = visitorOf(request);
    const identified = await identifyVisitor(deps, session, parseJsonBody(contactBody, request.body));
    return { ...widgetContactSummary(identified.contact, false), ...(identified.newToken ? { widget_auth_token: identified.newToken } : {}) };
  };
  // The reference service routes the singular path; the spec names the plural one. Both work.
  for (const path of ['/contact', '/contacts']) {
    app.patch(path, update);
    app.put(path, update);
  }

  app.patch('/contact/set_user', async (request) => {
    const session = visitorOf(request);
    const identified = await identifyVisitor(deps, session, parseJsonBody(contactBody, request.body));
    return { ...widgetContactSummary(identified.contact, true), ...(identified.newToken ? { widget_auth_token: identified.newToken } : {}) };
  });
}
