// Tells the agent when what they see comes from the cache because the service is unreachable.
import { isUnreachable } from '../platform/call';
import { UntrustedText } from './UntrustedText';

export function SyncBanner(props: { error: unknown; fetching: boolean }) {
  if (!props.error) return null;
  const offline = isUnreachable(props.error);
  return (
    <p role="status" className={offline ? 'banner offline' : 'banner error'}>
      {offline ? 'Offline: showing what was saved on this computer.' : <UntrustedText text={(props.error as Error).message} />}
    </p>
  );
}
