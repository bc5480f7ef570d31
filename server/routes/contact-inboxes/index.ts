// A contact's inboxes (chatwoot-compat §1.4): `POST contacts/{id}/contact_inboxes` links the contact
// to an inbox (`{source_id, inbox}`), and `GET contacts/{id}/contactable_inboxes` lists the inboxes
// the caller could start a conversation in with it (`{payload: [{source_id, inbox}]}`), as the
// reference's ContactableInboxesService: API inboxes always (the existing source_id or a new
// UUID), email inboxes when the contact has an email (its address), web widgets only where the
// visitor already is. `hmac_verified` is trusted here, as the reference does on this endpoint.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Caller } from '../../http/auth';
import { visibleInboxIds } from '../../http/auth';
import { boolish, shortText } from '../../http/body';
import { invalid, notFound } from '../../http/errors';
import { intString, parseParams } from '../../http/params';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { idParams } from '../../http/scope';
import { inboxSlim } from '../../presenters/contact';
import { contactById } from '../../presenters/people';
import type { ContactRow } from '../../presenters/people';
import { contactInboxBySource, contactInboxOf, markVerified } from '../../store/contact-inboxes';
import { inboxById, inboxesOfAccount } from '../../store/inboxes';
import { createContactInbox } from '../../store/provision';
import type { RouteDeps } from '../deps';

const createBody = z.object({ inbox_id: intString, source_id: shortText().optional(), hmac_verified: boolish.optional() });

export function contactInboxRoutes(deps: RouteDeps) {
  const { db } = deps;
  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();
    /** The path's contact, in the caller's account (404 otherwise). */
    const contactOf = (caller: Caller, params: unknown): ContactRow => {
      const contact = contactById(db, parseParams(idParams, params, 'path parameter').id);
      if (!contact || contact.account_id !== caller.accountId) throw notFound();
      return contact;
    };

    app.post(
      '/contacts/:id/contact_inboxes',
      { schema: { params: idParams, body: createBody }, preValidation: async (request) => void contactOf(request.caller, request.params) },
      async (request) => {
        const contact = contactOf(request.caller, request.params);
        const inbox = inboxById(db, request.caller.accountId, request.body.inbox_id);
        if (!inbox) throw notFound();
        const sourceId = request.body.source_id || (inbox.channel_type === 'Channel::Email' && contact.email ? contact.email : randomUUID());
        const existing = contactInboxBySource(db, inbox.id, sourceId);
        if (existing && existing.contact_id !== contact.id) throw invalid('Source has already been taken', ['source_id']);
        let link = existing ?? contactInboxOf(db, contact.id, inbox.id);
        if (!link || (request.body.source_id && link.source_id !== sourceId)) {
          createContactInbox(db, contact.id, inbox.id, deps.clock(), sourceId);
          link = contactInboxBySource(db, inbox.id, sourceId)!;
        }
        if (request.body.hmac_verified && !link.hmac_verified) link = markVerified(db, link, deps.clock());
        return { source_id: link.source_id, inbox: inboxSlim(inbox) };
      },
    );

    app.get('/contacts/:id/contactable_inboxes', { schema: { params: idParams } }, async (request) => {
      const contact = contactOf(request.caller, request.params);
      const visible = visibleInboxIds(db, request.caller);
      const payload = inboxesOfAccount(db, request.caller.accountId)
        .filter((inbox) => visible.includes(inbox.id))
        .flatMap((inbox) => {
          const existing = contactInboxOf(db, contact.id, inbox.id)?.source_id;
          const sourceId =
            inbox.channel_type === 'Channel::Api' ? (existing ?? randomUUID()) : inbox.channel_type === 'Channel::Email' ? (contact.email ?? existing) : existing;
          return sourceId ? [{ source_id: sourceId, inbox: inboxSlim(inbox) }] : [];
        });
      return { payload };
    });
  };
}
