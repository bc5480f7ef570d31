// Builds the service: Fastify for HTTP, one SQLite database. The CLI (cli.ts) and the tests both
// start it through here, so tests exercise exactly what runs.
import Fastify from 'fastify';
import type { Db } from './db/open';
import { openDatabase } from './db/open';
import { EventBus } from './events/bus';
import { installBodyParsing } from './http/body';
import { installErrorHandling } from './http/errors';
import { installThrottles } from './http/throttle';
import { installNotifier } from './notifications/notifier';
import { accountRoutes } from './routes/account';
import { agentTeamRoutes } from './routes/agents-teams';
import { assignmentPolicyRoutes } from './routes/assignment-policies';
import { contactNoteRoutes } from './routes/contact-notes';
import { contactRoutes } from './routes/contacts';
import { conversationActionRoutes } from './routes/conversation-actions';
import { conversationAssignmentRoutes } from './routes/conversation-assignments';
import { conversationRoutes } from './routes/conversations';
import { customFilterRoutes } from './routes/custom-filters';
import type { RouteDeps } from './routes/deps';
import { inboxRoutes } from './routes/inboxes';
import { labelCannedRoutes } from './routes/labels-canned';
import { messageRoutes } from './routes/messages';
import { notificationRoutes } from './routes/notifications';
import { profileRoutes } from './routes/profile';
import { reportRoutes } from './routes/reports';
import { uploadRoutes } from './routes/uploads';
import { installReportingRecorder } from './reports/recorder';
import { searchRoutes } from './routes/search';

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
}

export interface Service {
  app: ReturnType<typeof Fastify>;
  db: Db;
  /** Domain events from every write; live updates and webhooks listen here. */
  bus: EventBus;
  clock: () => number;
  /** Every route registered, as Fastify saw it (the bad-input sweep walks these). */
  routes: ReadonlyArray<{ method: string; url: string }>;
  close(): Promise<void>;
}

export async function buildService(options: ServiceOptions): Promise<Service> {
  const db = openDatabase(options.db);
  const clock = options.clock ?? Date.now;
  const app = Fastify({
    logger: options.logger ? { level: 'info', redact: ['req.headers.api_access_token', 'req.headers["api-access-token"]', 'req.headers["x-auth-token"]'] } : false,
    bodyLimit: options.bodyLimit ?? 1_048_576,
  });
  const routes: { method: string; url: string }[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  const bus = new EventBus();
  bus.onListenerError = (err, event) => app.log.error({ err, event: event.name }, 'event listener failed');
  installErrorHandling(app);
  installBodyParsing(app);
  if (options.production) installThrottles(app, clock);
  installNotifier(db, bus, clock);
  installReportingRecorder(db, bus, clock);
  const deps: RouteDeps = { db, bus, clock };
  profileRoutes(app, deps);
  conversationRoutes(app, deps);
  conversationActionRoutes(app, deps);
  conversationAssignmentRoutes(app, deps);
  messageRoutes(app, deps);
  inboxRoutes(app, deps);
  contactRoutes(app, deps);
  contactNoteRoutes(app, deps);
  searchRoutes(app, deps);
  agentTeamRoutes(app, deps);
  labelCannedRoutes(app, deps);
  notificationRoutes(app, deps);
  reportRoutes(app, deps);
  customFilterRoutes(app, deps);
  accountRoutes(app, deps);
  assignmentPolicyRoutes(app, deps);
  uploadRoutes(app, deps);
  return {
    app,
    db,
    bus,
    clock,
    routes,
    async close() {
      await app.close();
      db.close();
    },
  };
}
