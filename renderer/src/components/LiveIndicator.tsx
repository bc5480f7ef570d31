// The live-update connection in the header: a dot and one word (Live, Connecting…, Offline). It is
// a polite status region, so a screen reader hears the change; the words say what it means for
// the agent, since "offline" alone could be read as the whole app.
import type { LiveStatus } from '../../../shared/bridge/calls/app';

const words: Record<LiveStatus['state'], { label: string; detail: string }> = {
  connected: { label: 'Live', detail: 'New messages and changes appear as they happen.' },
  connecting: { label: 'Connecting…', detail: 'Connecting to live updates.' },
  offline: { label: 'Offline', detail: 'Not receiving live updates; reconnecting automatically. What you do is kept and sent when the service is back.' },
};

export function LiveIndicator({ status }: { status: LiveStatus | undefined }) {
  const state = status?.state ?? 'connecting';
  const { label, detail } = words[state];
  return (
    <p className="live-indicator" data-state={state} role="status" title={detail}>
      <span className="live-dot" aria-hidden="true" />
      <span className="visually-hidden">Live updates: </span>
      {label}
      <span className="visually-hidden">. {detail}</span>
    </p>
  );
}
