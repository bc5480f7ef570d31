// Resolving the Widget family's credentials (spec: Authentication → Widget family):
//   website_token (query, every request) → the web-widget inbox: 404 when it matches none,
//     401 "Account is suspended" when its account is suspended;
//   X-Auth-Token (header, all but config) → the visitor: 404 when missing, malformed, expired,
//     signed for another inbox, or naming a source_id that is not a contact inbox of this inbox.
// Resolved by the widget scope's hook (installWidgetScope) for every route of the plugin it is
// installed on, at preValidation, after the body is read: a body that cannot be read (400) wins
// over a bad token (404), as it did when each handler resolved them.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/open';
import type { EventBus } from '../../events/bus';
import { HttpError, notFound, unauthorized } from '../../http/errors';
import type { InboxRow } from '../../store/inboxes';
import type { ContactRow } from '../../presenters/people';
import { contactById } from '../../presenters/people';
import type { ContactInboxRow } from '../../store/contact-inboxes';
import { accountIsSuspended, contactInboxBySource, widgetInboxByToken } from '../../store/contact-inboxes';
import type { WriteContext } from '../../store/writes';
import type { WidgetTokens } from '../../widget/session-token';

export interface WidgetDeps {
  db: Db;
  bus: EventBus;
  clock: () => number;
  tokens: WidgetTokens;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Widget session start (POST config): a suspended account's 401 is `{errors: [...]}` and the visitor's token is optional. */
    widgetSessionStart?: boolean;
  }
  interface FastifyRequest {
    /** Widget: the inbox of the website_token (set by the widget scope). */
    widgetInbox: InboxRow;
    /** Widget: the visitor of the X-Auth-Token (set by the widget scope; undefined only on session start, or where no visitor is asked for). */
    visitor: VisitorSession | undefined;
  }
}

const tokenQuery = z.object({ website_token: z.string().min(1).max(255) });

/**
 * The inbox named by website_token. Session start declares its 401 as `{errors:[string]}` (spec);
 * the other widget endpoints answer suspension with `{error}` as the reference service does.
 */
function widgetInbox(db: Db, request: FastifyRequest, opts: { sessionStart?: boolean } = {}): InboxRow {
  const parsed = tokenQuery.safeParse(request.query ?? {});
  const inbox = parsed.success ? widgetInboxByToken(db, parsed.data.website_token) : undefined;
  if (!inbox) throw notFound();
  if (accountIsSuspended(db, inbox.account_id)) {
    throw opts.sessionStart ? new HttpError(401, { errors: ['Account is suspended'] }) : unauthorized('Account is suspended');
  }
  return inbox;
}

export function authTokenHeader(request: FastifyRequest): string | undefined {
  const value = request.headers['x-auth-token'];
  const token = Array.isArray(value) ? value[0] : value;
  return token ? token : undefined;
}

export interface VisitorSession {
  inbox: InboxRow;
  contactInbox: ContactInboxRow;
  contact: ContactRow;
}

/** The visitor of a valid token for this inbox, or undefined. */
async function sessionOf(deps: WidgetDeps, inbox: InboxRow, token: string | undefined): Promise<VisitorSession | undefined> {
  if (!token) return undefined;
  const claims = await deps.tokens.verify(token, inbox.id);
  const contactInbox = claims && contactInboxBySource(deps.db, inbox.id, claims.source_id);
  const contact = contactInbox && contactById(deps.db, contactInbox.contact_id);
  return contactInbox && contact ? { inbox, contactInbox, contact } : undefined;
}

/**
 * Every route of `scope` answers for the inbox of its website_token and, with `visitor`, for the
 * visitor of its X-Auth-Token (404 without one; optional on the session start).
 */
export function installWidgetScope(scope: FastifyInstance, deps: WidgetDeps, opts: { visitor: boolean }) {
  scope.decorateRequest('widgetInbox', null as unknown as InboxRow);
  scope.decorateRequest('visitor', undefined);
  scope.addHook('preValidation', async (request: FastifyRequest) => {
    const sessionStart = request.routeOptions.config.widgetSessionStart === true;
    const inbox = widgetInbox(deps.db, request, { sessionStart });
    request.widgetInbox = inbox;
    if (!opts.visitor) return;
    const session = await sessionOf(deps, inbox, authTokenHeader(request));
    if (!session && !sessionStart) throw notFound();
    request.visitor = session;
  });
}

/** The visitor of a route in a scope that asks for one (every widget endpoint but config). */
export function visitorOf(request: FastifyRequest): VisitorSession {
  return request.visitor!;
}

export function visitorWrite(deps: WidgetDeps, contact: ContactRow): WriteContext {
  return { db: deps.db, bus: deps.bus, now: deps.clock(), performer: { type: 'contact', id: contact.id } };
}
