// One sender per session cache. The inbox mounts it (useOutboxSender); actions wake it. Acquired
// and released by count, and stopped a moment after the last release, so React's development
// double mount reuses the same sender instead of starting a second one beside it.
import { useEffect } from 'react';
import type { Bridge } from '../../../shared/bridge/contract';
import type { InboxDb } from '../db/schema';
import type { BackoffPolicy } from './retry-policy';
import { defaultBackoff } from './retry-policy';
import { OutboxSender } from './sender';

/** Settings for senders started from here (tests shorten the waits). */
export const outboxSettings: { backoff: BackoffPolicy } = { backoff: defaultBackoff };

const senders = new Map<string, { sender: OutboxSender; bridge: Bridge; users: number; stopTimer?: ReturnType<typeof setTimeout> }>();

export const senderFor = (db: InboxDb): OutboxSender | undefined => senders.get(db.name)?.sender;

export function acquireSender(db: InboxDb, bridge: Bridge, notify: (text: string) => void): () => void {
  let slot = senders.get(db.name);
  // Another bridge (a new transport) needs a sender of its own; the old one stops now.
  if (slot && slot.bridge !== bridge && slot.users === 0) {
    clearTimeout(slot.stopTimer);
    slot.sender.stop();
    senders.delete(db.name);
    slot = undefined;
  }
  if (slot) clearTimeout(slot.stopTimer);
  else {
    slot = { sender: new OutboxSender({ db, bridge, notify, backoff: outboxSettings.backoff }), bridge, users: 0 };
    senders.set(db.name, slot);
    void slot.sender.start();
  }
  slot.users++;
  const held = slot;
  return () => {
    held.users--;
    if (held.users > 0) return;
    held.stopTimer = setTimeout(() => {
      if (held.users > 0) return;
      held.sender.stop();
      if (senders.get(db.name) === held) senders.delete(db.name);
    }, 0);
  };
}

/** Drains this session's outbox while mounted (from what is already queued, at once). */
export function useOutboxSender(db: InboxDb, bridge: Bridge, notify: (text: string) => void) {
  useEffect(() => acquireSender(db, bridge, notify), [db, bridge, notify]);
}
