// The files attached in a conversation's composer and not sent yet, kept with its draft in the
// cache (`draftFiles`, by conversation), so switching conversations, a reload or a restart does not
// lose them. Written as they change (one write at a time, in order, so the last change is what
// stays); the commit that queues the message drops them (actions/perform.ts), as it drops the text.
import { useEffect, useRef, useState } from 'react';
import type { InboxDb } from '../db/schema';
import type { PendingFiles } from './attachments';
import { admit, readFiles } from './attachments';

/** The stored files of `conversationId`'s draft, as the composer holds them (File objects). */
export async function loadDraftFiles(db: InboxDb, conversationId: number): Promise<File[]> {
  const row = await db.draftFiles.get(conversationId);
  return (row?.files ?? []).map((f) => new File([f.data], f.name, { type: f.type }));
}

/** Stores exactly `files` as the draft's (none: the row goes). */
export async function saveDraftFiles(db: InboxDb, conversationId: number, files: readonly File[]): Promise<void> {
  if (!files.length) return db.draftFiles.delete(conversationId);
  await db.draftFiles.put({ conversationId, files: await readFiles(files) });
}

/** Saves one change after another: a later change never lands before an earlier one's write. */
export function draftFilesWriter(db: InboxDb, conversationId: number, onError: () => void) {
  let chain: Promise<void> = Promise.resolve();
  return (files: readonly File[]) => {
    chain = chain.then(() => saveDraftFiles(db, conversationId, files)).catch(onError);
  };
}

/**
 * The composer's files for `conversationId`, kept with its draft: read once, then every change
 * written through. One per conversation (the composer is keyed by it). `clear` after the send (whose commit already dropped
 * them) leaves nothing behind that an earlier write could bring back.
 */
export function usePendingFiles(db: InboxDb, conversationId: number, notify: (text: string) => void): PendingFiles {
  const [files, setFiles] = useState<readonly File[]>([]);
  const held = useRef<readonly File[]>([]);
  // One writer per draft, so its writes stay in order (the composer is keyed by conversation).
  const [save] = useState(() => draftFilesWriter(db, conversationId, () => notify('The attached files could not be kept on this computer.')));
  const show = (next: readonly File[]) => {
    held.current = next;
    setFiles(next);
  };
  const change = (next: readonly File[]) => {
    show(next);
    save(next);
  };
  useEffect(() => {
    let live = true;
    void loadDraftFiles(db, conversationId).then((stored) => {
      if (!live || !stored.length) return;
      // Files added while the stored ones were read go after them (and are stored with them).
      const added = held.current.length > 0;
      const next = admit(stored, held.current).files;
      show(next);
      if (added) save(next);
    });
    return () => {
      live = false;
    };
  }, [db, conversationId, save]);
  return {
    files,
    add: (incoming) => {
      const next = admit(held.current, [...incoming]);
      if (next.problems.length) notify(next.problems.join(' '));
      if (next.files.length !== held.current.length) change(next.files);
    },
    remove: (index) => change(held.current.filter((_, i) => i !== index)),
    clear: () => change([]),
  };
}
