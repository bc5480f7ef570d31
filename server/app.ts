// Builds the service: Fastify for HTTP, one SQLite database. The CLI (cli.ts) and the tests both
// start it through here, so tests exercise exactly what runs.
import Fastify from 'fastify';
import type { Db } from './db/open';
import { databaseReleased, openDatabase } from './db/open';
import { EventBus } from './events/bus';
import { installBodyParsing } from './http/body';
import { closeConnectionsWhileClosing } from './http/closing';
import { allowCors } from './http/cors';
import { frameworkErrors, installErrorHandling } from './http/errors';
import { advertiseExtensions } from './http/extensions';
import { redactLogArgs, requestSerializer } from './http/log-redaction';
import { installThrottles } from './http/throttle';
import { installNotifier } from './notifications/notifier';
import { accountCreationRoutes, accountRoutes } from './routes/account';
import { agentTeamRoutes } from './routes/agents-teams';
import { changeRoutes } from './routes/changes';
import { assignmentPolicyRoutes } from './routes/assignment-policies';
import { contactNoteRoutes } from './routes/contact-notes';
import { contactRoutes } from './routes/contacts';
import { conversationActionRoutes } from './routes/conversation-actions';
import { conversationAssignmentRoutes } from './routes/conversation-assignments';
import { conversationRoutes } from './routes/conversations';
import type { RouteDeps } from './routes/deps';
import { inboxRoutes } from './routes/inboxes';
import { inboxMemberRoutes } from './routes/inbox-members';
import { agentBotRoutes } from './routes/agent-bots';
import { customAttributeDefinitionRoutes } from './routes/custom-attribute-definitions';
import { contactInboxRoutes } from './routes/contact-inboxes';
import { filterRoutes } from './routes/filters';
import { integrationRoutes } from './routes/integrations';
import { customFilterRoutes } from './routes/custom-filters';
import { labelRoutes } from './routes/labels';
import { cannedResponseRoutes } from './routes/canned-responses';
import { searchRoutes } from './routes/search';
import { installationRoutes } from './routes/installation';
import { installAccountScope, installUserScope } from './routes/account-scope';
import { useZodSchemas } from './http/route-schemas';
import { messageRoutes } from './routes/messages';
import { notificationRoutes } from './routes/notifications';
import { profileRoutes } from './routes/profile';
import { CLIENT, clientRoutes, PUBLIC_API } from './routes/client';
import { WIDGET, widgetRoutes } from './routes/widget';
import { widgetPageRoutes } from './routes/widget/page';
import { DEFAULT_WIDGET_TOKEN_LIFETIME_S, WidgetTokens } from './widget/session-token';
import { attachLiveUpdates } from './live/hub';
import type { LiveOptions, LiveUpdates } from './live/hub';
import { webhookRoutes } from './routes/webhooks';
import { DEFAULT_WEBHOOK_TIMEOUT_MS, WebhookQueue } from './webhooks/delivery';
import type { WebhookQueueOptions } from './webhooks/delivery';
import { attachWebhookDispatch } from './webhooks/dispatcher';
import { reportRoutes } from './routes/reports';
import { blobRoutes, uploadRoutes } from './routes/uploads';
import { installReportingRecorder } from './reports/recorder';

export interface ServiceOptions {
  /** SQLite file, or ':memory:'. */
  db: string;
  /** Turns on the spec's throttles (Limits table); off otherwise, as the spec says. */
  production?: boolean;
  /** Milliseconds since the epoch; injectable so tests control time. */
  clock?: () => number;
  logger?: boolean;
  /** Largest accepted request body, in bytes. */
  bodyLimit?: number;
  /** Lifetime of widget session tokens (spec: 180 days by default). */
  widgetTokenLifetimeSeconds?: number;
  /** Live updates: socket.io on or off (ActionCable at /cable is always on), socket.io's recovery window. */
  live?: LiveOptions;
  /** Webhook delivery: timeout (default 5 s), concurrency, queue bound, result callback. */
  webhooks?: WebhookQueueOptions;
  /**
   * The service's address as its users reach it, for links stored with records that anyone may
   * write (a contact's avatar). Without it, the address the request named: its Host header, which
   * an anonymous Client caller controls. The CLI always gives one (`--public-url`, else the
   * address it listens on).
   */
  publicUrl?: () => string | undefined;
  /** How long an Idempotency-Key's stored answer is replayed (SYNC-PROTOCOL.md); 24 hours by default. */
  idempotencyTtlMs?: number;
}

export interface Service {
  app: ReturnType<typeof Fastify>;
  db: Db;
  /** Domain events from every write; live updates and webhooks listen here. */
  bus: EventBus;
  clock: () => number;
  /** Live updates on app.server: socket.io (unless turned off) and ActionCable, fed by one delivery per event. */
  live: LiveUpdates;
  /** Outgoing webhook deliveries (off the request path). */
  webhooks: WebhookQueue;
  /** Every registered route, as Fastify saw it (method, url): the bad-input sweeps walk these. */
  routes: ReadonlyArray<{ method: string; url: string }>;
  close(): Promise<void>;
}

export async function buildService(options: ServiceOptions): Promise<Service> {
  const db = openDatabase(options.db);
  const clock = options.clock ?? Date.now;
  const app = Fastify({
    logger: options.logger
      ? {
          level: 'info',
          // Headers are not serialized at all (requestSerializer); these stay for any code that logs them.
          redact: ['req.headers.api_access_token', 'req.headers["api-access-token"]', 'req.headers["x-auth-token"]', 'req.headers.authorization', 'req.headers.cookie'],
          serializers: { req: requestSerializer },
          // Every string a log call passes (message, error, details) is scrubbed as URLs are.
          hooks: {
            logMethod(args: unknown[], method: (...a: unknown[]) => void) {
              method.apply(this, redactLogArgs(args));
            },
          },
        }
      : false,
    bodyLimit: options.bodyLimit ?? 1_048_576,
    // `/inboxes/1/` is `/inboxes/1`, as Rails routes it (clients generated from the OpenAPI file send both).
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors,
  });
  const routes: { method: string; url: string }[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url });
  });
  const bus = new EventBus();
  bus.onListenerError = (err, event) => app.log.error({ err, event: event.name }, 'event listener failed');
  installErrorHandling(app);
  closeConnectionsWhileClosing(app);
  useZodSchemas(app);
  advertiseExtensions(app);
  installBodyParsing(app);
  if (options.production) installThrottles(app, clock);
  installNotifier(db, bus, clock);
  installReportingRecorder(db, bus, clock);
  const deps: RouteDeps = {
    db,
    bus,
    clock,
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.idempotencyTtlMs === undefined ? {} : { idempotencyTtlMs: options.idempotencyTtlMs }),
  };
  // The Application family. Areas moved to plugins live under the account prefix, its caller
  // resolved by the account scope's hooks (routes/account-scope.ts); the others still resolve it
  // in each handler.
  // Not awaited: plugins load when the app gets ready, so hooks added to the app before then (a
  // test's, a throttle's) reach their routes too.
  void app.register(
    async (account) => {
      installAccountScope(account, deps);
      await account.register(accountRoutes(deps));
      await account.register(inboxRoutes(deps));
      await account.register(inboxMemberRoutes(deps));
      await account.register(agentBotRoutes(deps));
      await account.register(customAttributeDefinitionRoutes(deps));
      await account.register(contactInboxRoutes(deps));
      await account.register(filterRoutes(deps));
      await account.register(integrationRoutes(deps));
      await account.register(customFilterRoutes(deps));
      await account.register(labelRoutes(deps));
      await account.register(cannedResponseRoutes(deps));
      await account.register(searchRoutes(deps));
      await account.register(notificationRoutes(deps));
      await account.register(webhookRoutes(deps));
      await account.register(assignmentPolicyRoutes(deps));
      await account.register(uploadRoutes(deps));
      await account.register(changeRoutes(deps));
      await account.register(conversationActionRoutes(deps));
      await account.register(conversationRoutes(deps));
      await account.register(conversationAssignmentRoutes(deps));
      await account.register(agentTeamRoutes(deps));
      await account.register(contactNoteRoutes(deps));
      await account.register(contactRoutes(deps));
      await account.register(messageRoutes(deps));
    },
    { prefix: '/api/v1/accounts/:account_id' },
  );
  void app.register(
    async (account) => {
      installAccountScope(account, deps);
      await account.register(reportRoutes(deps));
    },
    { prefix: '/api/v2/accounts/:account_id' },
  );
  // Outside an account: the signed-in user's own routes, their caller resolved by the user scope.
  void app.register(
    async (user) => {
      installUserScope(user, deps);
      await user.register(profileRoutes(deps));
      await user.register(accountCreationRoutes(deps));
    },
    { prefix: '/api/v1' },
  );
  void app.register(installationRoutes(deps));
  void app.register(blobRoutes(deps));
  // The contact-facing families (Client API, Widget API), their callers resolved by their scopes'
  // hooks (routes/client/scope.ts, routes/widget/scope.ts); CORS on each family's prefix only.
  const tokens = new WidgetTokens(db, clock, options.widgetTokenLifetimeSeconds ?? DEFAULT_WIDGET_TOKEN_LIFETIME_S);
  void app.register(
    async (publicApi) => {
      await allowCors(publicApi);
      await publicApi.register(clientRoutes(deps), { prefix: CLIENT });
    },
    { prefix: PUBLIC_API },
  );
  void app.register(
    async (widget) => {
      await allowCors(widget);
      await widget.register(widgetRoutes({ ...deps, tokens }));
    },
    { prefix: WIDGET },
  );
  void app.register(async (page) => widgetPageRoutes(page, { ...deps, tokens }));
  // Live updates and webhook delivery listen to the bus.
  const live = attachLiveUpdates(app.server, db, bus, clock, options.live);
  const webhooks = new WebhookQueue({ timeoutMs: DEFAULT_WEBHOOK_TIMEOUT_MS, log: app.log, ...options.webhooks });
  const stopWebhooks = attachWebhookDispatch(db, bus, webhooks);
  return {
    app,
    db,
    bus,
    clock,
    live,
    webhooks,
    routes,
    async close() {
      live.close();
      stopWebhooks();
      await app.close();
      db.close();
      await databaseReleased(db);
    },
  };
}
