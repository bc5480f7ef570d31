// Contacts (chatwoot-compat §1.4): the paged list (15), search, one contact, create (no
// deduplication), update (attributes merge), custom attributes removed, delete (administrators), a
// contact's conversations, and its labels. Notes are in contact-notes.ts.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/open';
import { stmt } from '../db/open';
import type { AccountScope } from '../http/auth';
import { requireAdmin, visibleInboxIds } from '../http/auth';
import { attributesObject, boolish, emailFormat, input, optionalId, parseBody, shortText } from '../http/body';
import { acceptContactForms, avatarChangeOf, avatarUrlField, readContactForm } from '../http/contact-form';
import { invalid, notAuthorized, notFound } from '../http/errors';
import { createOnce, keyedRequest, replayed } from '../http/idempotency';
import { intString, listParam, parseParams } from '../http/params';
import { pathId, scoped, storedLinkBase } from '../http/scope';
import { contactWithInboxes, inboxRaw } from '../presenters/contact';
import { conversationRest } from '../presenters/conversation';
import type { InboxRow } from '../store/inboxes';
import type { ContactRow } from '../presenters/people';
import { contactRest } from '../presenters/people';
import type { ConversationRow } from '../store/conversations';
import { contactLabels, deleteContact, removeCustomAttributes, setContactLabels, updateContact } from '../store/contact-updates';
import { createContactInbox } from '../store/provision';
import { applyAvatar } from '../store/contact-avatars';
import { commit, insertContact } from '../store/writes';
import type { RouteDeps } from './deps';
import { writeContext } from './deps';

const A = '/api/v1/accounts/:account_id/contacts';
const CONTACTS_PAGE_SIZE = 15;

export function contactInAccount(db: Db, scope: { accountId: number }, id: number): ContactRow {
  const row = stmt(db, 'SELECT * FROM contacts WHERE id = ? AND account_id = ?').get(id, scope.accountId) as ContactRow | undefined;
  if (!row) throw notFound();
  return row;
}

// procore-sift style: `name` ascending, `-name` descending; unknown attributes are ignored. A Map,
// not an object literal: `sort=constructor` must not find Object.prototype's members.
const SORTABLE = new Map<string, string>([
  ['email', 'c.email'],
  ['name', 'c.name'],
  ['phone_number', 'c.phone_number'],
  ['last_activity_at', 'c.last_activity_at'],
  ['created_at', 'c.created_at'],
  ['company', "json_extract(c.additional_attributes, '$.company_name')"],
  ['city', "json_extract(c.additional_attributes, '$.city')"],
  ['country', "json_extract(c.additional_attributes, '$.country')"],
]);
const listQuery = z.object({ page: intString.optional(), sort: z.string().max(50).optional(), q: z.string().max(1000).optional(), include_contact_inboxes: boolish.optional() });

/** "Resolved" contacts only (an email, phone number or identifier), as the reference lists them. */
function listContacts(db: Db, scope: AccountScope, raw: Record<string, unknown>, search?: string) {
  const q = parseParams(listQuery, raw, 'query parameter');
  const where = ["c.account_id = ?", "(COALESCE(c.email, '') != '' OR COALESCE(c.phone_number, '') != '' OR COALESCE(c.identifier, '') != '')"];
  const args: unknown[] = [scope.accountId];
  for (const label of listParam(raw, 'labels') ?? []) {
    where.push('EXISTS (SELECT 1 FROM contact_labels l WHERE l.contact_id = c.id AND l.title = ?)');
    args.push(label);
  }
  if (search !== undefined) {
    const like = `%${search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    where.push(
      `(c.name LIKE ?1 ESCAPE '\\' OR c.email LIKE ?1 ESCAPE '\\' OR c.phone_number LIKE ?1 ESCAPE '\\' OR c.identifier LIKE ?1 ESCAPE '\\'
        OR json_extract(c.additional_attributes, '$.company_name') LIKE ?1 ESCAPE '\\')`.replaceAll('?1', '?'),
    );
    args.push(like, like, like, like, like);
  }
  const sortKey = q.sort?.replace(/^-/, '') ?? '';
  const column = SORTABLE.get(sortKey);
  const order = column ? `${column} ${q.sort!.startsWith('-') ? 'DESC' : 'ASC'} NULLS LAST, c.id` : 'c.id';
  const page = q.page ?? 1;
  const base = `FROM contacts c WHERE ${where.join(' AND ')}`;
  const count = (db.prepare(`SELECT COUNT(*) AS n ${base}`).get(...args) as { n: number }).n;
  const rows = db.prepare(`SELECT c.* ${base} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...args, CONTACTS_PAGE_SIZE, (page - 1) * CONTACTS_PAGE_SIZE) as ContactRow[];
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

export function contactRoutes(app: FastifyInstance, deps: RouteDeps) {
  const { db } = deps;

  app.get(A, async (request) => listContacts(db, scoped(db, request), (request.query ?? {}) as Record<string, unknown>));

  app.get(`${A}/search`, async (request) => {
    const scope = scoped(db, request);
    const raw = (request.query ?? {}) as Record<string, unknown>;
    const q = typeof raw.q === 'string' ? raw.q.trim() : '';
    if (!q) throw invalid('Specify search string with parameter q', ['q']);
    return listContacts(db, scope, raw, q);
  });

  app.get(`${A}/:id`, async (request) => {
    const scope = scoped(db, request);
    return { payload: contactWithInboxes(db, contactInAccount(db, scope, pathId(request)), visibleInboxIds(db, scope)) };
  });

  /** The parameters (query string under a JSON or form body) and an avatar image from a form. */
  const paramsOf = async (request: FastifyRequest) => {
    const form = await readContactForm(request);
    return form ? { params: { ...((request.query as Record<string, unknown> | undefined) ?? {}), ...form.params }, image: form.avatar } : { params: input(request), image: undefined };
  };

  // No deduplication (spec: Retries): a retried create is a second contact, unless the client sends an
  // Idempotency-Key (beyond the spec, http/idempotency.ts; a form's fingerprint covers its avatar's bytes).
  const create = async (request: FastifyRequest, reply: FastifyReply) => {
    const scope = scoped(db, request);
    const { params, image } = await paramsOf(request);
    const keyed = keyedRequest(request, scope, { params, avatar: image ? createHash('sha256').update(image.data).digest('hex') : null });
    const replay = replayed(deps, reply, keyed);
    if (replay) return replay;
    const body = parseBody(createBody, params);
    let inbox: InboxRow | undefined;
    if (body.inbox_id) {
      inbox = stmt(db, 'SELECT * FROM inboxes WHERE id = ? AND account_id = ?').get(body.inbox_id, scope.accountId) as InboxRow | undefined;
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
        if (body.blocked) stmt(db, 'UPDATE contacts SET blocked = 1 WHERE id = ?').run(contact.id);
        // contact.created is rendered after commit, so it already shows the avatar.
        applyAvatar(db, contact, avatarChangeOf(body, image, storedLinkBase(deps, request)), ctx.now);
        if (!inbox) return { contact, sourceId: null };
        if (body.source_id && stmt(db, 'SELECT 1 FROM contact_inboxes WHERE inbox_id = ? AND source_id = ?').get(inbox.id, body.source_id)) {
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
    const scope = scoped(db, request);
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
  app.register(async (forms) => {
    await acceptContactForms(forms);
    forms.post(A, create);
    forms.patch(`${A}/:id`, update);
    forms.put(`${A}/:id`, update);
  });

  // chatwoot-compat §1.4: update merges custom attributes, so removing one has its own route.
  app.post(`${A}/:id/destroy_custom_attributes`, async (request) => {
    const scope = scoped(db, request);
    const contact = contactInAccount(db, scope, pathId(request));
    const { custom_attributes } = parseBody(attributeKeysBody, input(request));
    return { payload: contactWithInboxes(db, removeCustomAttributes(writeContext(deps, scope), contact, custom_attributes), visibleInboxIds(db, scope)) };
  });

  // chatwoot-compat §1.4: removes the picture (and a recorded avatar_url); the same rules as update.
  app.delete(`${A}/:id/avatar`, async (request) => {
    const scope = scoped(db, request);
    const contact = contactInAccount(db, scope, pathId(request));
    return { payload: contactRest(updateContact(writeContext(deps, scope), contact, { avatar: { image: null, url: null } })) };
  });

  app.delete(`${A}/:id`, async (request, reply) => {
    const scope = scoped(db, request);
    const contact = contactInAccount(db, scope, pathId(request));
    requireAdmin(scope);
    deleteContact(writeContext(deps, scope), contact);
    return reply.code(200).send();
  });

  // The latest 20 conversations, only those in inboxes the caller may see.
  app.get(`${A}/:id/conversations`, async (request) => {
    const scope = scoped(db, request);
    const id = pathId(request);
    contactInAccount(db, scope, id);
    const inboxes = visibleInboxIds(db, scope);
    const rows = (stmt(db, 'SELECT * FROM conversations WHERE contact_id = ? AND account_id = ? ORDER BY last_activity_at DESC, id DESC').all(id, scope.accountId) as ConversationRow[])
      .filter((c) => inboxes.includes(c.inbox_id))
      .slice(0, 20);
    return { payload: rows.map((c) => conversationRest(db, c, scope)) };
  });

  app.get(`${A}/:id/labels`, async (request) => {
    const scope = scoped(db, request);
    return { payload: contactLabels(db, contactInAccount(db, scope, pathId(request)).id) };
  });

  // Replaces the whole set, as conversation labels do.
  app.post(`${A}/:id/labels`, async (request) => {
    const scope = scoped(db, request);
    const contact = contactInAccount(db, scope, pathId(request));
    const { labels } = parseBody(labelsBody, input(request));
    return { payload: setContactLabels(writeContext(deps, scope), contact, labels) };
  });
}
