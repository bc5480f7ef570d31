// The session's outbox summary (db/outbox-summary.ts) for a component: undefined until read.
import { useSyncExternalStore } from 'react';
import { useSession } from '../platform/session';
import type { OutboxSnapshot } from '../db/outbox-summary';

export function useOutboxSummary(): OutboxSnapshot | undefined {
  const { client } = useSession();
  return useSyncExternalStore(client.outboxSummary.subscribe, client.outboxSummary.snapshot);
}
