// Resolving the Widget family's credentials (spec: Authentication → Widget family):
//   website_token (query, every request) → the web-widget inbox: 404 when it matches none,
//     401 "Account is suspended" when its account is suspended;
//   X-Auth-Token (header, all but config) → the visitor: 404 when missing, malformed, expired,
//     signed for another inbox, or naming a source_id that is not a contact inbox of this inbox.
import type { FastifyRequest } from 'fastify';
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

const tokenQuery = z.object({ website_token: z.string().min(1).max(255) });

/**
 * The inbox named by website_token. Session start declares its 401 as `{errors:[string]}` (spec);
 * the other widget endpoints answer suspension with `{error}` as the reference service does.
 */
export function widgetInbox(db: Db, request: FastifyRequest, opts: { sessionStart?: boolean } = {}): InboxRow {
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
export async function sessionOf(deps: WidgetDeps, inbox: InboxRow, token: string | undefined): Promise<VisitorSession | undefined> {
  if (!token) return undefined;
  const claims = await deps.tokens.verify(token, inbox.id);
  const contactInbox = claims && contactInboxBySource(deps.db, inbox.id, claims.source_id);
  const contact = contactInbox && contactById(deps.db, contactInbox.contact_id);
  return contactInbox && contact ? { inbox, contactInbox, contact } : undefined;
}

/** Every widget endpoint but config: a visitor session or 404. */
export async function widgetSession(deps: WidgetDeps, request: FastifyRequest): Promise<VisitorSession> {
  const inbox = widgetInbox(deps.db, request);
  const session = await sessionOf(deps, inbox, authTokenHeader(request));
  if (!session) throw notFound();
  return session;
}

export function visitorWrite(deps: WidgetDeps, contact: ContactRow): WriteContext {
  return { db: deps.db, bus: deps.bus, now: deps.clock(), performer: { type: 'contact', id: contact.id } };
}
