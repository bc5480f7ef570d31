// Tells the agent when what they see comes from the cache because the service is unreachable, or
// what a read's failure said.
import { memo } from 'react';
import { isUnreachable } from '../platform/call';
import { UntrustedText } from './UntrustedText';

/**
 * `offline`, where given, says whether the service is unreachable (the session's latest word,
 * conversation/reachability.ts); else the error says it. An unreachable error a later read
 * contradicted shows nothing.
 * Memoized: the list renders it at every triage key with the same error.
 */
export const SyncBanner = memo(function SyncBanner(props: { error: unknown; offline?: boolean }) {
  const unreachable = isUnreachable(props.error);
  const offline = props.offline ?? unreachable;
  if (offline) {
    return (
      <p role="status" className="banner offline">
        Offline: showing what was saved on this computer.
      </p>
    );
  }
  if (!props.error || unreachable) return null;
  return (
    <p role="status" className="banner error">
      <UntrustedText text={(props.error as Error).message} />
    </p>
  );
});
