// The header's word on the outbox: nothing when everything is saved; "Saving 3 changes…" while
// they go; "3 changes waiting to be sent, retrying" when they wait for a retry; contact changes the
// service refused (the contact panel shows them by their field); and messages the service refused,
// as a button to the conversation that holds the first of them.
import { useMemo } from 'react';
import { useOutboxSummary } from '../client/use-outbox-summary';
import { useUi } from '../state/ui';

export function OutboxStatus() {
  const select = useUi((s) => s.select);
  const outbox = useOutboxSummary();
  const state = useMemo(() => {
    if (!outbox) return undefined;
    // Conflicts wait for the agent in their own bar (ConflictBar), not here.
    const entries = outbox.entries.filter((e) => e.state !== 'confirmed' && e.state !== 'conflict');
    const failedEntries = entries.filter((e) => e.state === 'failed' && e.kind === 'message');
    const failed = failedEntries.length;
    const failedIn = failedEntries[0]?.conversationId;
    // A refused contact change waits in the contact panel, beside the field it is about.
    const contactsFailed = entries.filter((e) => e.state === 'failed' && e.kind === 'contact').length;
    const pending = entries.filter((e) => e.state !== 'failed');
    const retrying = pending.filter((e) => e.lastErrorKind !== undefined).length;
    return { pending: pending.length, retrying, failed, failedIn, contactsFailed };
  }, [outbox]);
  const text = !state
    ? ''
    : state.retrying
      ? `${state.pending} ${state.pending === 1 ? 'change' : 'changes'} waiting to be sent, retrying`
      : state.pending
        ? `Saving ${state.pending} ${state.pending === 1 ? 'change' : 'changes'}…`
        : '';
  const failedText = state?.failed ? `${state.failed} ${state.failed === 1 ? 'message' : 'messages'} not sent` : '';
  const contactText = state?.contactsFailed ? `${state.contactsFailed} contact ${state.contactsFailed === 1 ? 'change' : 'changes'} not saved` : '';
  return (
    <span className="outbox-status" role="status" data-testid="outbox-status">
      {text}
      {text && contactText ? ' · ' : ''}
      {contactText && <span className="error">{contactText}</span>}
      {(text || contactText) && failedText ? ' · ' : ''}
      {failedText && (
        <button type="button" className="link-button error" onClick={() => state?.failedIn !== undefined && select(state.failedIn)}>
          {failedText}
        </button>
      )}
    </span>
  );
}
