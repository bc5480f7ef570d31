// Messages of the open conversation that the service has not confirmed: their state in the outbox
// (sending, waiting to retry, refused), for the bubble to show with retry and discard.
import { useLiveQuery } from 'dexie-react-hooks';
import type { BridgeErrorKind } from '../../../shared/bridge/result';
import { isLocalMessage, markerOf } from '../model/intent';
import type { CachedMessage, InboxDb } from '../db/schema';

export interface UnsentInfo {
  seq: number;
  state: 'queued' | 'sending' | 'failed';
  attempts: number;
  lastError?: string;
  lastErrorKind?: BridgeErrorKind;
  /** A send whose outcome is unknown (the service is being asked whether it landed). */
  uncertain: boolean;
}

/**
 * Unsent messages of a conversation by client id. A conversation's entries go one at a time, so a
 * message queued behind an earlier change that failed (the service unreachable, say) is not
 * "Sending…": it waits for that one, and says it will be retried.
 */
export function useUnsentMessages(db: InboxDb, conversationId: number): ReadonlyMap<string, UnsentInfo> {
  return (
    useLiveQuery(async () => {
      const entries = await db.outbox.where('conversationId').equals(conversationId).sortBy('seq');
      const out = new Map<string, UnsentInfo>();
      let waitingOn: BridgeErrorKind | undefined;
      for (const e of entries) {
        if (e.state === 'confirmed' || e.state === 'conflict') continue;
        const errorKind = e.lastErrorKind ?? (e.state === 'queued' ? waitingOn : undefined);
        if (e.state !== 'failed' && e.lastErrorKind) waitingOn ??= e.lastErrorKind;
        if (e.kind !== 'message') continue;
        out.set(e.clientId, {
          seq: e.seq!,
          state: e.state,
          attempts: e.attempts,
          uncertain: Boolean(e.uncertain),
          ...(e.lastError ? { lastError: e.lastError } : {}),
          ...(errorKind ? { lastErrorKind: errorKind } : {}),
        });
      }
      return out;
    }, [db, conversationId]) ?? new Map()
  );
}

/**
 * The history without optimistic copies the service's own copy already stands for (a refresh can
 * bring the real message in before the send's answer swaps it): the agent never sees it twice.
 */
export function withoutDelivered(messages: readonly CachedMessage[]): CachedMessage[] {
  const delivered = new Set(messages.filter((m) => !isLocalMessage(m)).map(markerOf).filter(Boolean));
  return messages.filter((m) => !isLocalMessage(m) || !delivered.has(markerOf(m)));
}
