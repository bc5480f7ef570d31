// Builds the service: Fastify for HTTP, one SQLite database. The CLI (cli.ts) and the tests both
// start it through here, so tests exercise exactly what runs.
import Fastify from 'fastify';
import type { Db } from './db/open';
import { openDatabase } from './db/open';
import { EventBus } from './events/bus';
import { frameworkErrors, installErrorHandling } from './http/errors';
import { acceptEmptyJsonBodies } from './http/json-body';
import { requestSerializer } from './http/log-redaction';
import { accountResourceRoutes } from './routes/account-resources';
import { conversationRoutes } from './routes/conversations';
import { profileRoutes } from './routes/profile';
import { clientContactRoutes } from './routes/client/contacts';
import { clientConversationRoutes } from './routes/client/conversations';
import { widgetConversationRoutes } from './routes/widget/conversations';
import { widgetPageRoutes } from './routes/widget/page';
import { widgetSessionRoutes } from './routes/widget/session';
import { DEFAULT_WIDGET_TOKEN_LIFETIME_S, WidgetTokens } from './widget/session-token';
import { attachLiveUpdates } from './live/socket-server';
import type { LiveOptions } from './live/socket-server';
import { webhookRoutes } from './routes/webhooks';
import { DEFAULT_WEBHOOK_TIMEOUT_MS, WebhookQueue } from './webhooks/delivery';
import type { WebhookQueueOptions } from './webhooks/delivery';
import { attachWebhookDispatch } from './webhooks/dispatcher';

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
  /** Live updates (socket.io): connection state recovery window. */
  live?: LiveOptions;
  /** Webhook delivery: timeout (default 5 s), concurrency, queue bound, result callback. */
  webhooks?: WebhookQueueOptions;
}

export interface Service {
  app: ReturnType<typeof Fastify>;
  db: Db;
  /** Domain events from every write; live updates and webhooks listen here. */
  bus: EventBus;
  clock: () => number;
  /** The socket.io server for live updates, on app.server. */
  live: ReturnType<typeof attachLiveUpdates>;
  /** Outgoing webhook deliveries (off the request path). */
  webhooks: WebhookQueue;
  /** Every registered route (method, url): bad-input sweeps derive their route lists from it. */
  routes: { method: string; url: string }[];
  close(): Promise<void>;
}

export async function buildService(options: ServiceOptions): Promise<Service> {
  const db = openDatabase(options.db);
  const clock = options.clock ?? Date.now;
  const app = Fastify({
    logger: options.logger
      ? { level: 'info', redact: ['req.headers.api_access_token', 'req.headers["x-auth-token"]'], serializers: { req: requestSerializer } }
      : false,
    bodyLimit: options.bodyLimit ?? 1_048_576,
    frameworkErrors,
  });
  const bus = new EventBus();
  bus.onListenerError = (err, event) => app.log.error({ err, event: event.name }, 'event listener failed');
  const routes: { method: string; url: string }[] = [];
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) if (method !== 'HEAD') routes.push({ method, url: r.url });
  });
  installErrorHandling(app);
  acceptEmptyJsonBodies(app);
  profileRoutes(app, db);
  conversationRoutes(app, db);
  accountResourceRoutes(app, db);
  // The contact-facing families (Client API, Widget API).
  const tokens = new WidgetTokens(db, clock, options.widgetTokenLifetimeSeconds ?? DEFAULT_WIDGET_TOKEN_LIFETIME_S);
  clientContactRoutes(app, { db, bus, clock });
  clientConversationRoutes(app, { db, bus, clock });
  widgetSessionRoutes(app, { db, bus, clock, tokens });
  widgetConversationRoutes(app, { db, bus, clock, tokens });
  widgetPageRoutes(app, { db, bus, clock, tokens });
  const live = attachLiveUpdates(app.server, db, bus, options.live);
  webhookRoutes(app, db, clock);
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
    },
  };
}
