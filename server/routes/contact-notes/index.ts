// A contact's notes (chatwoot-compat §1.4, §2.13): a bare array, latest first; create, read,
// update and delete one. Any member of the account may write notes.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { userById } from '../../store/users';
import { input, parseBody, wrapped } from '../../http/body';
import { notFound } from '../../http/errors';
import { createOnce, keyedRequest, replayed } from '../../http/idempotency';
import { intString, parseParams } from '../../http/params';
import type { ZodApp, ZodTypeProvider } from '../../http/route-schemas';
import { idParams, pathId } from '../../http/scope';
import { notePresenter } from '../../presenters/contact';
import { deleteNote, insertNote, noteOfContact, notesOfContact, updateNote } from '../../store/contact-notes';
import { memberOf } from '../account-scope';
import type { RouteDeps } from '../deps';
import { contactInAccount } from '../contacts';

const N = '/contacts/:id/notes';
const noteParams = z.object({ account_id: intString, id: intString, note_id: intString });
const noteBody = z.object({ content: z.string({ error: "can't be blank" }).trim().min(1, "can't be blank").max(65_535, 'is too long (maximum is 65535 characters)') });

export function contactNoteRoutes(deps: RouteDeps) {
  const { db } = deps;
  const users = (id: number) => userById(db, id);

  const noteOf = (request: FastifyRequest) => {
    const scope = memberOf(request);
    const { id, note_id } = parseParams(noteParams, request.params, 'path parameter');
    const contact = contactInAccount(db, scope, id);
    const note = noteOfContact(db, contact.id, note_id);
    if (!note) throw notFound();
    return { scope, note };
  };
  /** The contact and note in the path (400, 404) before the body is judged. */
  const noteFirst = async (request: FastifyRequest) => {
    noteOf(request);
  };

  return async (plugin: FastifyInstance) => {
    const app: ZodApp = plugin.withTypeProvider<ZodTypeProvider>();

    app.get(N, { schema: { params: idParams } }, async (request) => {
      const scope = memberOf(request);
      const contact = contactInAccount(db, scope, pathId(request));
      const notes = notesOfContact(db, contact.id);
      return notes.map((n) => notePresenter(db, n, users));
    });

    // A retry is a second note, unless the client sends an Idempotency-Key (beyond the spec, http/idempotency.ts).
    // The body is read here, not by a schema: the key's fingerprint is over the body as sent, and a
    // replay answers before the body is judged (as conversation create).
    app.post(N, { schema: { params: idParams } }, async (request, reply) => {
      const scope = memberOf(request);
      const contact = contactInAccount(db, scope, pathId(request));
      const keyed = keyedRequest(request, scope);
      const replay = replayed(deps, reply, keyed);
      if (replay) return replay;
      const note = parseBody(noteBody, wrapped(input(request), 'note'));
      const now = deps.clock();
      return createOnce(deps, reply, keyed, () =>
        notePresenter(db, insertNote(db, { accountId: scope.accountId, contactId: contact.id, userId: scope.user.id, content: note.content }, now), users),
      );
    });

    app.get(`${N}/:note_id`, { schema: { params: noteParams } }, async (request) => notePresenter(db, noteOf(request).note, users));

    for (const method of ['PATCH', 'PUT'] as const) {
      app.route({
        method,
        url: `${N}/:note_id`,
        config: { wrap: 'note' },
        schema: { params: noteParams, body: noteBody },
        preValidation: noteFirst,
        handler: async (request) => {
          const { note } = noteOf(request);
          const body = request.body;
          return notePresenter(db, updateNote(db, note.id, body.content, deps.clock()), users);
        },
      });
    }

    app.delete(`${N}/:note_id`, { schema: { params: noteParams }, preValidation: noteFirst }, async (request, reply) => {
      const { note } = noteOf(request);
      deleteNote(db, note.id);
      return reply.code(200).send();
    });
  };
}
