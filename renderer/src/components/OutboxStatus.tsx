// The header's word on the outbox: nothing when everything is saved; "Saving 3 changes…" while
// they go; "3 changes waiting: the service cannot be reached" when they wait for a retry; and
// unsent messages. The queue itself keeps everything; this only says so.
import { useLiveQuery } from 'dexie-react-hooks';
import { useSession } from '../platform/session';

export function OutboxStatus() {
  const { db } = useSession();
  const state = useLiveQuery(async () => {
    const entries = (await db.outbox.toArray()).filter((e) => e.state !== 'confirmed');
    const failed = entries.filter((e) => e.state === 'failed').length;
    const pending = entries.filter((e) => e.state !== 'failed');
    const retrying = pending.filter((e) => e.lastErrorKind !== undefined).length;
    return { pending: pending.length, retrying, failed };
  }, [db]);
  const text = !state
    ? ''
    : state.retrying
      ? `${state.pending} ${state.pending === 1 ? 'change' : 'changes'} waiting to be sent, retrying`
      : state.pending
        ? `Saving ${state.pending} ${state.pending === 1 ? 'change' : 'changes'}…`
        : '';
  const failedText = state?.failed ? `${state.failed} ${state.failed === 1 ? 'message' : 'messages'} not sent` : '';
  return (
    <span className="outbox-status" role="status" data-testid="outbox-status">
      {text}
      {text && failedText ? ' · ' : ''}
      {failedText && <span className="error">{failedText}</span>}
    </span>
  );
}
