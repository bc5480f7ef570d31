// A contact's notes (contact_notes), written by the account's members.
import type { Db } from '../db/open';
import { stmt } from '../db/open';

export interface NoteRow {
  id: number;
  account_id: number;
  contact_id: number;
  user_id: number | null;
  content: string;
  created_at: number;
  updated_at: number;
}

const noteById = (db: Db, id: number) => stmt(db, 'SELECT * FROM contact_notes WHERE id = ?').get(id) as NoteRow | undefined;

export const noteOfContact = (db: Db, contactId: number, noteId: number) => stmt(db, 'SELECT * FROM contact_notes WHERE id = ? AND contact_id = ?').get(noteId, contactId) as NoteRow | undefined;

/** The contact's notes, latest first. */
export const notesOfContact = (db: Db, contactId: number) => stmt(db, 'SELECT * FROM contact_notes WHERE contact_id = ? ORDER BY created_at DESC, id DESC').all(contactId) as NoteRow[];

export function insertNote(db: Db, n: { accountId: number; contactId: number; userId: number; content: string }, now: number): NoteRow {
  const id = Number(
    stmt(db, 'INSERT INTO contact_notes (account_id, contact_id, user_id, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(n.accountId, n.contactId, n.userId, n.content, now, now).lastInsertRowid,
  );
  return noteById(db, id)!;
}

export function updateNote(db: Db, id: number, content: string, now: number): NoteRow {
  stmt(db, 'UPDATE contact_notes SET content = ?, updated_at = ? WHERE id = ?').run(content, now, id);
  return noteById(db, id)!;
}

export const deleteNote = (db: Db, id: number) => stmt(db, 'DELETE FROM contact_notes WHERE id = ?').run(id);
