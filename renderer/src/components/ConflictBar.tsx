// Changes that wait for the agent because someone else changed the same thing first: what the
// service has now (with its own activity line, which says who), what the agent wanted, and one key
// each to apply theirs anyway (y) or drop it (d). Meanwhile the screen shows the service's value.
import { useLiveQueryAfterFirstRows } from '../db/live-query-after-first-rows';
import { memo } from 'react';
import { useSession } from '../platform/session';

/** Memoised: the inbox renders again whenever a picker opens or closes. */
export const ConflictBar = memo(function ConflictBar(props: { onResolve(seq: number, choice: 'apply' | 'drop'): void; onOpen(conversationId: number): void }) {
  const { db } = useSession();
  const conflicts = useLiveQueryAfterFirstRows(() => db.outbox.where('state').equals('conflict').sortBy('seq'), [db]);
  const first = conflicts?.[0];
  if (!first?.conflict) return null;
  const { theirs, mine, activity } = first.conflict;
  const more = conflicts!.length - 1;
  return (
    <section className="conflict-bar" role="alert" aria-label="A change of yours waits for you" data-testid="conflict-bar">
      <p>
        <button type="button" className="link-button" onClick={() => props.onOpen(first.conversationId)}>
          #{first.conversationId}
        </button>{' '}
        {activity ? `${activity}. ` : 'Someone else changed it after you did. '}
        It is <strong>{theirs}</strong>; you wanted <strong>{mine}</strong>.{more > 0 ? ` (${more} more waiting.)` : ''}
      </p>
      <button type="button" onClick={() => props.onResolve(first.seq!, 'apply')} aria-keyshortcuts="y">
        Apply mine anyway <kbd>y</kbd>
      </button>
      <button type="button" onClick={() => props.onResolve(first.seq!, 'drop')} aria-keyshortcuts="d">
        Keep theirs <kbd>d</kbd>
      </button>
    </section>
  );
});
