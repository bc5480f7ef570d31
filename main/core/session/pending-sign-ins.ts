// A validated token waiting for the agent to pick one of several accounts. Held in main only
// (the renderer gets an opaque, single-use id), and only for a few minutes.
import { randomUUID } from 'node:crypto';
import type { Profile } from '../../../shared/api/records';

export const PENDING_SIGN_IN_TTL_MS = 5 * 60_000;

export interface PendingSignIn {
  baseUrl: string;
  token: string;
  profile: Profile;
  expiresAt: number;
}

export function createPendingSignIns(now: () => number) {
  const pending = new Map<string, PendingSignIn>();
  const sweep = () => {
    for (const [id, p] of pending) if (p.expiresAt <= now()) pending.delete(id);
  };
  return {
    add(entry: Omit<PendingSignIn, 'expiresAt'>): string {
      sweep();
      const id = randomUUID();
      pending.set(id, { ...entry, expiresAt: now() + PENDING_SIGN_IN_TTL_MS });
      return id;
    },
    /** Single use: answers the entry once, and only before it expires. */
    take(id: string): PendingSignIn | undefined {
      sweep();
      const entry = pending.get(id);
      pending.delete(id);
      return entry;
    },
  };
}
