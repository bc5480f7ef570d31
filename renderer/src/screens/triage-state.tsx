// What the triage commands need to read synchronously while a key is handled: the cached rows of
// the conversations an action could apply to outside the list's own rows (the selection, the open
// conversation) and the open conversation's unsent messages. Kept in refs from live queries, so a
// key press never waits.
// The refs belong to the inbox; the component that fills them (`TriageStateSync`) renders nothing,
// so the selection, the open conversation and the rows' writes re-render it alone: as a hook of the
// inbox they re-rendered the whole inbox, header and all, inside a triage key's task.
import { useLiveQueryAfterFirstRows } from '../db/live-query-after-first-rows';
import type { RefObject } from 'react';
import { useEffect, useMemo, useRef } from 'react';
import type { CachedConversation } from '../db/schema';
import { useSession } from '../platform/session';
import { useUi } from '../state/ui';
import type { UnsentSeqs } from './inbox-context';

export interface TriageStateRefs {
  rowsRef: RefObject<ReadonlyMap<number, CachedConversation>>;
  unsentRef: RefObject<UnsentSeqs>;
  conflictRef: RefObject<number | undefined>;
}

/** The refs, owned by the inbox and read by its commands. */
export function useTriageStateRefs(): TriageStateRefs {
  const rowsRef = useRef<ReadonlyMap<number, CachedConversation>>(new Map());
  const unsentRef = useRef<UnsentSeqs>({ waiting: [], failed: [] });
  const conflictRef = useRef<number | undefined>(undefined);
  return useMemo(() => ({ rowsRef, unsentRef, conflictRef }), []);
}

/** Keeps the refs current; renders nothing. */
export function TriageStateSync({ refs }: { refs: TriageStateRefs }) {
  const { rowsRef, unsentRef, conflictRef } = refs;
  const { db } = useSession();
  const bulk = useUi((s) => s.bulkSelection);
  const open = useUi((s) => s.selectedConversationId);
  // Not the cursor's row: it is a row of the list, which the commands read from the list's own
  // rows (ListOrder). Read from here, every cursor move (each j and k, each row resolved or snoozed
  // away) rendered this component and began a read of the cache inside the key's task.
  const ids = [...new Set([...bulk, open].filter((id): id is number => id !== undefined))];
  const key = ids.join(',');
  const rows = useLiveQueryAfterFirstRows(async () => new Map((await db.conversations.bulkGet(ids)).filter((c): c is CachedConversation => Boolean(c)).map((c) => [c.id, c])), [db, key]);
  const unsent = useLiveQueryAfterFirstRows(async (): Promise<UnsentSeqs> => {
    if (open === undefined) return { waiting: [], failed: [] };
    const entries = (await db.outbox.where('conversationId').equals(open).toArray()).filter((e) => e.kind === 'message');
    return { waiting: entries.filter((e) => e.state === 'queued').map((e) => e.seq!), failed: entries.filter((e) => e.state === 'failed').map((e) => e.seq!) };
  }, [db, open]);

  // The oldest change parked because someone else changed the same thing first (y / d act on it).
  const conflict = useLiveQueryAfterFirstRows(async () => (await db.outbox.where('state').equals('conflict').sortBy('seq'))[0]?.seq ?? null, [db]);

  useEffect(() => {
    conflictRef.current = conflict ?? undefined;
  }, [conflict, conflictRef]);
  useEffect(() => {
    if (rows) rowsRef.current = rows;
  }, [rows, rowsRef]);
  useEffect(() => {
    if (unsent) unsentRef.current = unsent;
  }, [unsent, unsentRef]);
  return null;
}
