// Tells the agent when what they see comes from the cache because the service is unreachable.
import { BridgeFailure } from '../platform/session';

export function SyncBanner(props: { error: unknown; fetching: boolean }) {
  if (!props.error) return null;
  const kind = props.error instanceof BridgeFailure ? props.error.error.kind : 'internal';
  const offline = kind === 'network' || kind === 'timeout' || kind === 'server';
  return (
    <p role="status" className={offline ? 'banner offline' : 'banner error'}>
      {offline ? 'Offline: showing what was saved on this computer.' : (props.error as Error).message}
    </p>
  );
}
