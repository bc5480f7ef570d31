// The link between the page and main. In web mode it can drop (the local host restarting, killed,
// or started again with another launch secret); the desktop's IPC never drops. What depends on
// main's state (the session, the live socket's status, what was missed meanwhile) asks again when
// the link comes back, so a restarted host is picked up without a reload.
import { useEffect, useState } from 'react';
import type { Bridge, BridgeConnection } from '../../../shared/bridge/contract';

/** Calls `fn` each time the link comes back after it dropped (not on the first connection). */
export function onReconnect(bridge: Bridge, fn: () => void): () => void {
  let dropped = false;
  return (
    bridge.onConnection?.((state) => {
      if (state !== 'connected') dropped = true;
      else if (dropped) {
        dropped = false;
        fn();
      }
    }) ?? (() => undefined)
  );
}

/** The link's state; `connected` where it cannot drop, or until it is known. */
export function useBridgeConnection(bridge: Bridge): BridgeConnection {
  const [state, setState] = useState<BridgeConnection>('connected');
  useEffect(() => bridge.onConnection?.(setState), [bridge]);
  return state;
}
