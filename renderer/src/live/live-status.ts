// The live-update socket's state as main reports it: asked once, then followed through
// `live.status` events. Main holds the socket; the page only shows what it says.
import { useEffect, useState } from 'react';
import type { LiveStatus } from '../../../shared/bridge/calls/app';
import type { Bridge } from '../../../shared/bridge/contract';
import { onReconnect } from '../platform/connection';

export function useLiveStatus(bridge: Bridge): LiveStatus | undefined {
  const [status, setStatus] = useState<LiveStatus>();
  useEffect(() => {
    let live = true;
    let heard = false;
    const off = bridge.on('live.status', (s) => {
      heard = true;
      if (live) setStatus(s);
    });
    const ask = () => {
      heard = false;
      // An event that arrived first is newer than this answer.
      void bridge.call('app.liveStatus', {}).then((r) => live && !heard && r.ok && setStatus(r.value));
    };
    ask();
    // A restarted host holds a new socket: what it says now, not what the old one said last.
    const offReconnect = onReconnect(bridge, ask);
    return () => {
      live = false;
      off();
      offReconnect();
    };
  }, [bridge]);
  return status;
}
