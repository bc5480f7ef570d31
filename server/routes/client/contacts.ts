// Client API: the public inbox lookup and the contact endpoints (chatwoot-compat §1.16). The HMAC
// identity check (spec rules 1–7) applies to exactly these three: POST contacts, GET contact,
// PATCH contact. A failed check is a 500 whose body is {error: "HMAC failed: ..."}.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { contactBody, contactPatchOf } from '../../http/contact-fields';
import { acceptContactForms, readContactForm } from '../../http/contact-form';
import { notFound } from '../../http/errors';
import { clientHmacFailure, verifyIdentity } from '../../http/identity';
import { parseParams } from '../../http/params';
import { parseBody, parseJsonBody } from '../../http/body';
import { storedLinkBase } from '../../http/scope';
import { inboxSettings } from '../../presenters/inbox';
import { contactById } from '../../presenters/people';
import { clientContact as clientContactShape, contactRecord } from '../../presenters/public';
import { contactInboxBySource, createContactWithInbox, markVerified } from '../../store/contact-inboxes';
import { updateContact } from '../../store/writes';
import type { PublicDeps } from './scope';

const createBody = contactBody.extend({ source_id: z.string().min(1).max(255).nullish() });
const identityQuery = z.object({ identifier: z.string().max(255).optional(), identifier_hash: z.string().max(128).optional() });

/** In the inbox scope: the inbox itself and contact create. */
export function clientInboxRoutes(app: FastifyInstance, deps: PublicDeps) {
  const { db } = deps;

  app.get('/', async (request) => {
    const inbox = request.clientInbox;
    const s = inboxSettings(inbox);
    return {
      identifier: inbox.identifier,
      identity_validation_enabled: inbox.hmac_mandatory === 1,
      name: inbox.name,
      timezone: s.timezone,
      working_hours: s.working_hours,
      working_hours_enabled: s.working_hours_enabled,
      csat_survey_enabled: s.csat_survey_enabled,
      greeting_enabled: s.greeting_enabled,
    };
  });

  app.post('/contacts', async (request) => {
    const inbox = request.clientInbox;
    const body = parseJsonBody(createBody, request.body);
    const identity = verifyIdentity(inbox, body);
    if (identity === 'failed') throw clientHmacFailure();
    const verified = identity === 'verified';
    const now = deps.clock();
    // A stable source_id that exists: the existing contact inbox, unchanged (the spec's only
    // deduplicating create). A correct hash still marks it verified (rule 7).
    const existing = body.source_id ? contactInboxBySource(db, inbox.id, body.source_id) : undefined;
    if (existing) {
      const ci = verified ? markVerified(db, existing, now) : existing;
      const contact = contactById(db, ci.contact_id);
      if (!contact) throw notFound();
      return clientContactShape(contact, ci);
    }
    const patch = contactPatchOf(body, { withIdentifier: true });
    const { contact, contactInbox } = createContactWithInbox(
      { db, bus: deps.bus, now },
      {
        inbox,
        sourceId: body.source_id ?? randomUUID(),
        // Only a caller that proved the identifier may attach to the account's contact holding it.
        reuseIdentifier: verified ? (patch.identifier ?? null) : null,
        contact: { name: patch.name ?? null, email: patch.email ?? null, phoneNumber: patch.phoneNumber ?? null, identifier: patch.identifier ?? null, customAttributes: patch.customAttributes ?? {} },
        verified,
      },
    );
    return clientContactShape(contact, contactInbox);
  });
}

/** In the contact scope: the contact, read and updated. */
export async function clientContactRoutes(app: FastifyInstance, deps: PublicDeps) {
  const { db } = deps;

  app.get('/', async (request) => {
    const scope = request.clientContact;
    const identity = verifyIdentity(scope.inbox, parseParams(identityQuery, request.query, 'query parameter'));
    if (identity === 'failed') throw clientHmacFailure();
    const ci = identity === 'verified' ? markVerified(db, scope.contactInbox, deps.clock()) : scope.contactInbox;
    return clientContactShape(scope.contact, ci);
  });

  // JSON, or multipart form-data with an `avatar` image (http/contact-form.ts); the hash check is the same.
  const update = async (request: FastifyRequest) => {
    const scope = request.clientContact;
    const form = await readContactForm(request);
    const body = form ? parseBody(contactBody, form.params) : parseJsonBody(contactBody, request.body);
    const identity = verifyIdentity(scope.inbox, body);
    if (identity === 'failed') throw clientHmacFailure();
    const now = deps.clock();
    if (identity === 'verified') markVerified(db, scope.contactInbox, now);
    // The identifier is not changed here (chatwoot-compat §1.16): it only feeds the hash check.
    const patch = contactPatchOf(body, { withIdentifier: false });
    if (form?.avatar) patch.avatar = { ...patch.avatar, image: form.avatar, baseUrl: storedLinkBase(deps, request) };
    const contact = updateContact({ db, bus: deps.bus, now }, scope.contact, patch);
    return contactRecord(contact);
  };
  await app.register(async (scope) => {
    await acceptContactForms(scope);
    scope.patch('/', update);
    scope.put('/', update);
  });
}
