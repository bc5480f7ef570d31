// A contact's notes (chatwoot-compat §1.4, §2.13): a bare array, latest first; create, read,
// update and delete one. Any member of the account may write notes.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { stmt } from '../db/open';
import { userById } from '../store/users';
import { input, parseBody, wrapped } from '../http/body';
import { notFound } from '../http/errors';
import { createOnce, keyedRequest, replayed } from '../http/idempotency';
import { intString, parseParams } from '../http/params';
import { pathId, scoped } from '../http/scope';
import type { NoteRow } from '../presenters/contact';
import { notePresenter } from '../presenters/contact';
import type { RouteDeps } from './deps';
import { contactInAccount } from './contacts';

const N = '/api/v1/accounts/:account_id/contacts/:id/notes';
const noteParams = z.object({ account_id: intString, id: intString, note_id: intString });
const noteBody = z.object({ content: z.string({ error: "can't be blank" }).trim().min(1, "can't be blank").max(65_535, 'is too long (maximum is 65535 characters)') });

export function contactNoteRoutes(app: FastifyInstance, deps: RouteDeps) {
  const { db } = deps;
  const users = (id: number) => userById(db, id);

  const noteOf = (request: FastifyRequest) => {
    const scope = scoped(db, request);
    const { id, note_id } = parseParams(noteParams, request.params, 'path parameter');
    const contact = contactInAccount(db, scope, id);
    const note = stmt(db, 'SELECT * FROM contact_notes WHERE id = ? AND contact_id = ?').get(note_id, contact.id) as NoteRow | undefined;
    if (!note) throw notFound();
    return { scope, note };
  };

  app.get(N, async (request) => {
    const scope = scoped(db, request);
    const contact = contactInAccount(db, scope, pathId(request));
    const notes = stmt(db, 'SELECT * FROM contact_notes WHERE contact_id = ? ORDER BY created_at DESC, id DESC').all(contact.id) as NoteRow[];
    return notes.map((n) => notePresenter(db, n, users));
  });

  // A retry is a second note, unless the client sends an Idempotency-Key (beyond the spec, http/idempotency.ts).
  app.post(N, async (request, reply) => {
    const scope = scoped(db, request);
    const contact = contactInAccount(db, scope, pathId(request));
    const keyed = keyedRequest(request, scope);
    const replay = replayed(deps, reply, keyed);
    if (replay) return replay;
    const note = parseBody(noteBody, wrapped(input(request), 'note'));
    const now = deps.clock();
    return createOnce(deps, reply, keyed, () => {
      const id = Number(
        stmt(db, 'INSERT INTO contact_notes (account_id, contact_id, user_id, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(scope.accountId, contact.id, scope.user.id, note.content, now, now)
          .lastInsertRowid,
      );
      return notePresenter(db, stmt(db, 'SELECT * FROM contact_notes WHERE id = ?').get(id) as NoteRow, users);
    });
  });

  app.get(`${N}/:note_id`, async (request) => notePresenter(db, noteOf(request).note, users));

  const update = async (request: FastifyRequest) => {
    const { note } = noteOf(request);
    const body = parseBody(noteBody, wrapped(input(request), 'note'));
    stmt(db, 'UPDATE contact_notes SET content = ?, updated_at = ? WHERE id = ?').run(body.content, deps.clock(), note.id);
    return notePresenter(db, stmt(db, 'SELECT * FROM contact_notes WHERE id = ?').get(note.id) as NoteRow, users);
  };
  app.patch(`${N}/:note_id`, update);
  app.put(`${N}/:note_id`, update);

  app.delete(`${N}/:note_id`, async (request, reply) => {
    const { note } = noteOf(request);
    stmt(db, 'DELETE FROM contact_notes WHERE id = ?').run(note.id);
    return reply.code(200).send();
  });
}
