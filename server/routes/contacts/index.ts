// Contacts (chatwoot-compat §1.4): the paged list (15), search, one contact, create (no
// deduplication), update (attributes merge), custom attributes removed, delete (administrators), a contact's conversations,
// and its labels. Notes are in contact-notes/.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/open';
import type { AccountScope } from '../../http/auth';
import { requireAdmin, visibleInboxIds } from '../../http/auth';
import { attributesObject, boolish, emailFormat, input, optionalId, parseBody, shortText } from '../../http/body';
import { acceptContactForms, avatarChangeOf, avatarUrlField, readContactForm } from '../../http/contact-form';
import { invalid, notAuthorized, notFound } from '../../http/errors';
import { createOnce, keyedRequest, replayed } from '../../http/idempotency';
import { intString, listParam, parseParams } from '../../http/params';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { idParams, pathId, storedLinkBase } from '../../http/scope';
import { contactWithInboxes, inboxRaw } from '../../presenters/contact';
import { conversationRest } from '../../presenters/conversation';
import type { InboxRow } from '../../store/inboxes';
import { inboxById } from '../../store/inboxes';
import type { ContactRow } from '../../store/contacts';
import { blockContact, contactOfAccount, listContacts as contactsPage } from '../../store/contacts';
import { contactRest } from '../../presenters/people';
import { conversationsOfContact } from '../../store/conversations';
import { contactLabels, deleteContact, removeCustomAttributes, setContactLabels, updateContact } from '../../store/contact-updates';
import { contactInboxBySource } from '../../store/contact-inboxes';
import { createContactInbox } from '../../store/provision';
import { applyAvatar } from '../../store/contact-avatars';
import { commit, insertContact } from '../../store/writes';
import { memberOf } from '../account-scope';
import type { RouteDeps } from '../deps';
import { writeContext } from '../deps';

const A = '/contacts';
const CONTACTS_PAGE_SIZE = 15;

export function contactInAccount(db: Db, scope: { accountId: number }, id: number): ContactRow {
  const row = contactOfAccount(db, scope.accountId, id);
  if (!row) throw notFound();
  return row;
}

const listQuery = z.object({ page: intString.optional(), sort: z.string().max(50).optional(), q: z.string().max(1000).optional(), include_contact_inboxes: boolish.optional() });

/** "Resolved" contacts only (an email, phone number or identifier), as the reference lists them. */
function listContacts(db: Db, scope: AccountScope, raw: Record<string, unknown>, search?: string) {
  const q = parseParams(listQuery, raw, 'query parameter');
  const page = q.page ?? 1;
  const { count, rows } = contactsPage(db, scope.accountId, { labels: listParam(raw, 'labels') ?? [], search, sort: q.sort, page, pageSize: CONTACTS_PAGE_SIZE });
  const withInboxes = q.include_contact_inboxes ?? true;
  const inboxes = visibleInboxIds(db, scope);
  return {
    meta: { count, current_page: page },
    payload: rows.map((c) => (withInboxes ? contactWithInboxes(db, c, inboxes) : contactRest(c))),
  };
}

const phone = z.string().regex(/^\+[1-9]\d{1,14}$/, 'should be in e164 format');
const contactFields = {
  name: shortText(255).optional(),
  email: z.union([z.literal(''), z.null(), z.string().max(320).regex(emailFormat, 'is invalid')]).transform((v) => v || null).optional(),
  phone_number: z.union([z.literal(''), z.null(), phone]).transform((v) => v || null).optional(),
  identifier: z.union([z.null(), shortText(255)]).transform((v) => v || null).optional(),
  blocked: boolish.optional(),
  additional_attributes: attributesObject.optional(),
  custom_attributes: attributesObject.optional(),
  avatar_url: avatarUrlField,
};
const createBody = z.object({ ...contactFields, inbox_id: optionalId.optional(), source_id: shortText(255).optional() });
const updateBody = z.object(contactFields);
const labelsBody = z.object({ labels: z.array(z.string().trim().min(1, "can't be blank").max(255)).max(100) });
const attributeKeysBody = z.object({ custom_attributes: z.array(z.string().max(255)).max(100) });

export function contactRoutes(deps: RouteDeps) {
  const { db } = deps;
  /** The contact in the path (400, 404) before the body is judged. */
  const contactFirst = async (request: FastifyRequest) => {
    contactInAccount(db, memberOf(request), pathId(request));
  };

  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();

    // The query is read by listContacts (labels as a list; search's missing q is 422 before a malformed page is 400).
    app.get(A, async (request) => listContacts(db, memberOf(request), (request.query ?? {}) as Record<string, unknown>));

    app.get(`${A}/search`, async (request) => {
      const scope = memberOf(request);
      const raw = (request.query ?? {}) as Record<string, unknown>;
      const q = typeof raw.q === 'string' ? raw.q.trim() : '';
      if (!q) throw invalid('Specify search string with parameter q', ['q']);
      return listContacts(db, scope, raw, q);
    });

    app.get(`${A}/:id`, { schema: { params: idParams } }, async (request) => {
      const scope = memberOf(request);
      return { payload: contactWithInboxes(db, contactInAccount(db, scope, pathId(request)), visibleInboxIds(db, scope)) };
    });

    /** The parameters (query string under a JSON or form body) and an avatar image from a form. */
    const paramsOf = async (request: FastifyRequest) => {
      const form = await readContactForm(request);
      return form ? { params: { ...((request.query as Record<string, unknown> | undefined) ?? {}), ...form.params }, image: form.avatar } : { params: input(request), image: undefined };
    };

    // Create and update read their bodies here, not by a schema: either may be a multipart form with
    // an avatar file, and create's Idempotency-Key fingerprint and replay come before the body is judged.
    // No deduplication (spec: Retries): a retried create is a second contact, unless the client sends an
    // Idempotency-Key (beyond the spec, http/idempotency.ts; a form's fingerprint covers its avatar's bytes).
    const create = async (request: FastifyRequest, reply: FastifyReply) => {
      const scope = memberOf(request);
      const { params, image } = await paramsOf(request);
      const keyed = keyedRequest(request, scope, { params, avatar: image ? createHash('sha256').update(image.data).digest('hex') : null });
      const replay = replayed(deps, reply, keyed);
      if (replay) return replay;
      const body = parseBody(createBody, params);
      let inbox: InboxRow | undefined;
      if (body.inbox_id) {
        inbox = inboxById(db, scope.accountId, body.inbox_id);
        if (!inbox) throw notFound();
        if (!visibleInboxIds(db, scope).includes(inbox.id)) throw notAuthorized();
      }
      const ctx = writeContext(deps, scope);
      return createOnce(deps, reply, keyed, () => {
        const { contact, sourceId } = commit(ctx, (events) => {
          const contact = insertContact(
            ctx,
            {
              accountId: scope.accountId,
              name: body.name ?? '',
              email: body.email ?? null,
              phoneNumber: body.phone_number ?? null,
              identifier: body.identifier ?? null,
              additionalAttributes: body.additional_attributes ?? {},
              customAttributes: body.custom_attributes ?? {},
            },
            events,
          );
          if (body.blocked) blockContact(db, contact.id);
          // contact.created is rendered after commit, so it already shows the avatar.
          applyAvatar(db, contact, avatarChangeOf(body, image, storedLinkBase(deps, request)), ctx.now);
          if (!inbox) return { contact, sourceId: null };
          if (body.source_id && contactInboxBySource(db, inbox.id, body.source_id)) {
            throw invalid('source_id should be unique', ['source_id']);
          }
          return { contact, sourceId: createContactInbox(db, contact.id, inbox.id, ctx.now, body.source_id).sourceId };
        });
        const fresh = contactInAccount(db, scope, contact.id);
        return {
          payload: {
            contact: contactWithInboxes(db, fresh, visibleInboxIds(db, scope)),
            contact_inbox: { inbox: inbox ? inboxRaw(inbox) : null, source_id: sourceId },
          },
        };
      });
    };

    const update = async (request: FastifyRequest) => {
      const scope = memberOf(request);
      const contact = contactInAccount(db, scope, pathId(request));
      const { params, image } = await paramsOf(request);
      const body = parseBody(updateBody, params);
      const avatar = avatarChangeOf(body, image, storedLinkBase(deps, request));
      const row = updateContact(writeContext(deps, scope), contact, {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.email !== undefined ? { email: body.email } : {}),
        ...(body.phone_number !== undefined ? { phoneNumber: body.phone_number } : {}),
        ...(body.identifier !== undefined ? { identifier: body.identifier } : {}),
        ...(body.blocked !== undefined ? { blocked: body.blocked } : {}),
        ...(body.additional_attributes ? { additionalAttributes: body.additional_attributes } : {}),
        ...(body.custom_attributes ? { customAttributes: body.custom_attributes } : {}),
        ...(avatar ? { avatar } : {}),
      });
      return { payload: contactWithInboxes(db, row, visibleInboxIds(db, scope)) };
    };
    // Only create and update read multipart form-data (an avatar file).
    await app.register(async (forms) => {
      await acceptContactForms(forms);
      forms.post(A, create);
      forms.patch(`${A}/:id`, { schema: { params: idParams } }, update);
      forms.put(`${A}/:id`, { schema: { params: idParams } }, update);
    });

    // chatwoot-compat §1.4: update merges custom attributes, so removing one has its own route.
    app.post(`${A}/:id/destroy_custom_attributes`, { schema: { params: idParams, body: attributeKeysBody }, preValidation: contactFirst }, async (request) => {
      const scope = memberOf(request);
      const contact = contactInAccount(db, scope, pathId(request));
      return { payload: contactWithInboxes(db, removeCustomAttributes(writeContext(deps, scope), contact, request.body.custom_attributes), visibleInboxIds(db, scope)) };
    });

    // chatwoot-compat §1.4: removes the picture (and a recorded avatar_url); the same rules as update.
    app.delete(`${A}/:id/avatar`, { schema: { params: idParams } }, async (request) => {
      const scope = memberOf(request);
      const contact = contactInAccount(db, scope, pathId(request));
      return { payload: contactRest(updateContact(writeContext(deps, scope), contact, { avatar: { image: null, url: null } })) };
    });

    // The contact (404) before the role (401), as before.
    app.delete(`${A}/:id`, { schema: { params: idParams } }, async (request, reply) => {
      const scope = memberOf(request);
      const contact = contactInAccount(db, scope, pathId(request));
      requireAdmin(scope);
      deleteContact(writeContext(deps, scope), contact);
      return reply.code(200).send();
    });

    // The latest 20 conversations, only those in inboxes the caller may see.
    app.get(`${A}/:id/conversations`, { schema: { params: idParams } }, async (request) => {
      const scope = memberOf(request);
      const id = pathId(request);
      contactInAccount(db, scope, id);
      const inboxes = visibleInboxIds(db, scope);
      const rows = conversationsOfContact(db, scope.accountId, id)
        .filter((c) => inboxes.includes(c.inbox_id))
        .slice(0, 20);
      return { payload: rows.map((c) => conversationRest(db, c, scope)) };
    });

    app.get(`${A}/:id/labels`, { schema: { params: idParams } }, async (request) => {
      const scope = memberOf(request);
      return { payload: contactLabels(db, contactInAccount(db, scope, pathId(request)).id) };
    });

    // Replaces the whole set, as conversation labels do.
    app.post(`${A}/:id/labels`, { schema: { params: idParams, body: labelsBody }, preValidation: contactFirst }, async (request) => {
      const scope = memberOf(request);
      const contact = contactInAccount(db, scope, pathId(request));
      const { labels } = request.body;
      return { payload: setContactLabels(writeContext(deps, scope), contact, labels) };
    });
  };
}
