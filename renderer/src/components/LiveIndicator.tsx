// The live-update connection in the header: a dot and one word (Live, Connecting…, Offline). It is
// a polite status region, so a screen reader hears the change; the words say what it means for
// the agent, since "offline" alone could be read as the whole app. It says what main's socket
// says only while the page can hear main at all: with the link to main down (web mode's host
// restarting or killed), the last word main sent is stale, so it says offline and why.
import type { LiveStatus } from '../../../shared/bridge/calls/app';
import type { BridgeConnection } from '../../../shared/bridge/contract';

const words: Record<LiveStatus['state'], { label: string; detail: string }> = {
  connected: { label: 'Live', detail: 'New messages and changes appear as they happen.' },
  connecting: { label: 'Connecting…', detail: 'Connecting to live updates.' },
  offline: { label: 'Offline', detail: 'Not receiving live updates; reconnecting automatically. What you do is kept and sent when the service is back.' },
};
const linkDown = { label: 'Offline', detail: "The app's background process is not answering (restarting?); reconnecting automatically. What you do is kept and sent when it is back." };

export function LiveIndicator({ status, link = 'connected' }: { status: LiveStatus | undefined; link?: BridgeConnection }) {
  const state = link === 'connected' ? (status?.state ?? 'connecting') : 'offline';
  const { label, detail } = link === 'connected' ? words[state] : linkDown;
  return (
    <p className="live-indicator" data-state={state} role="status" title={detail}>
      <span className="live-dot" aria-hidden="true" />
      <span className="visually-hidden">Live updates: </span>
      {label}
      <span className="visually-hidden">. {detail}</span>
    </p>
  );
}
