// Per-conversation drafts in the cache, so a half-written reply survives switching conversations,
// a reload and a restart. Written shortly after typing pauses, and at once when the composer goes.
// Sending drops the draft in the commit that queues the message (actions/perform.ts); the hook
// then clears the box without writing the sent text back.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ComposerMode, InboxDb } from '../db/schema';

const SAVE_AFTER_MS = 300;

export async function saveDraft(db: InboxDb, conversationId: number, text: string, mode: ComposerMode): Promise<void> {
  // An empty note still remembers it was a note; an empty reply is no draft at all.
  if (!text && mode === 'reply') await db.drafts.delete(conversationId);
  else await db.drafts.put({ conversationId, text, mode, updatedAt: Date.now() });
}

export function useDraft(db: InboxDb, conversationId: number) {
  const [text, setTextState] = useState('');
  const [mode, setModeState] = useState<ComposerMode>('reply');
  const [loaded, setLoaded] = useState(false);
  const latest = useRef({ text: '', mode: 'reply' as ComposerMode, dirty: false });
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  // Read the stored draft once; afterwards the composer's own state leads (a live query would
  // overwrite what the agent is typing with the copy just saved).
  useEffect(() => {
    let live = true;
    void db.drafts.get(conversationId).then((stored) => {
      if (!live) return;
      setTextState(stored?.text ?? '');
      setModeState(stored?.mode ?? 'reply');
      latest.current = { text: stored?.text ?? '', mode: stored?.mode ?? 'reply', dirty: false };
      setLoaded(true);
    });
    return () => {
      live = false;
    };
  }, [db, conversationId]);

  const flush = useCallback(() => {
    clearTimeout(timer.current);
    if (!latest.current.dirty) return;
    latest.current.dirty = false;
    void saveDraft(db, conversationId, latest.current.text, latest.current.mode);
  }, [db, conversationId]);

  const schedule = useCallback(() => {
    latest.current.dirty = true;
    clearTimeout(timer.current);
    timer.current = setTimeout(flush, SAVE_AFTER_MS);
  }, [flush]);

  useEffect(() => flush, [flush]);
  useEffect(() => {
    window.addEventListener('pagehide', flush);
    return () => window.removeEventListener('pagehide', flush);
  }, [flush]);

  const setText = useCallback(
    (t: string) => {
      setTextState(t);
      latest.current.text = t;
      schedule();
    },
    [schedule],
  );
  const setMode = useCallback(
    (m: ComposerMode) => {
      setModeState(m);
      latest.current.mode = m;
      schedule();
    },
    [schedule],
  );
  /** Sending starts: no timed save may write this text back after the send drops the draft. */
  const holdForSend = useCallback(() => clearTimeout(timer.current), []);

  /**
   * The send of `sent` is queued (its draft went in the same commit). Clears the box, unless the
   * agent typed on meanwhile: then that newer text is kept and saved as the draft.
   */
  const sentOut = useCallback(
    (sent: string) => {
      if (latest.current.text === sent) {
        latest.current = { text: '', mode: latest.current.mode, dirty: false };
        setTextState('');
      } else {
        schedule();
      }
    },
    [schedule],
  );

  /** The send could not be queued: the text stays, and is saved again as the draft. */
  const sendFailed = useCallback(() => schedule(), [schedule]);

  return { text, mode, loaded, setText, setMode, flush, holdForSend, sentOut, sendFailed };
}
