// Colleagues' presence, from the live connection's `presence.update` (chatwoot-compat §4.3):
// each agent's availability, and (the service's presence extension) who has which conversation
// open. Transient UI state, never cached: a report replaces the one before it. Until a report
// arrives (a service that sends none: real Chatwoot over socket.io does not exist, over ActionCable
// it answers every 20 s), availability is the agents list's, and nobody is shown viewing.
import { create } from 'zustand';
import type { Agent } from '../../../shared/api/directory';
import type { Availability, LiveEvent } from '../../../shared/api/live-events';

type PresenceEvent = Extract<LiveEvent, { type: 'presence.update' }>;

interface PresenceState {
  /** A report arrived this session: its availability wins over the agents list's. */
  heard: boolean;
  users: Record<number, Availability>;
  /** Conversation display id → agents with it open (only from a service that reports it). */
  viewing: Record<number, number[]>;
  apply(event: PresenceEvent): void;
  clear(): void;
}

export const usePresence = create<PresenceState>()((set) => ({
  heard: false,
  users: {},
  viewing: {},
  apply: (event) =>
    set(() => ({
      heard: true,
      users: Object.fromEntries(Object.entries(event.users).map(([k, v]) => [Number(k), v])),
      viewing: Object.fromEntries(Object.entries(event.viewing ?? {}).map(([k, v]) => [Number(k), v])),
    })),
  clear: () => set({ heard: false, users: {}, viewing: {} }),
}));

const known: readonly Availability[] = ['online', 'busy', 'offline'];

/** An agent's availability: the last report's (not listed there: offline), else the agents list's. */
export function availabilityOf(agent: Pick<Agent, 'id' | 'availability_status'>, presence: Pick<PresenceState, 'heard' | 'users'>): Availability {
  if (presence.heard) return presence.users[agent.id] ?? 'offline';
  return known.includes(agent.availability_status as Availability) ? (agent.availability_status as Availability) : 'offline';
}

export const availabilityWords: Record<Availability, string> = { online: 'Online', busy: 'Busy', offline: 'Offline' };
