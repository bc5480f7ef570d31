// The session's outbox summary (client/outbox-summary.ts) for a component: undefined until read.
import { useSyncExternalStore } from 'react';
import { useSession } from '../platform/session';
import type { OutboxSnapshot } from './outbox-summary';

export function useOutboxSummary(): OutboxSnapshot | undefined {
  const { client } = useSession();
  return useSyncExternalStore(client.outboxSummary.subscribe, client.outboxSummary.snapshot);
}
