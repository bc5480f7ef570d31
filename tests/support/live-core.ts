// A main core with live updates on, for tests against a real service: every bridge event and log
// line it produced is recorded, and `next` waits for a matching event (or finds one already
// emitted since `from`).
import { createMainCore } from '../../main/core/core';
import { createSecretRegistry, redactingLogger } from '../../main/core/redact';
import type { LiveUpdatesOptions } from '../../main/core/live/live-updates';
import type { SavedSessionsStore } from '../../main/core/session/saved-sessions';
import { memoryVault } from '../../main/core/vault';
import type { TokenVault } from '../../main/core/vault';

export interface Emitted {
  name: string;
  payload: unknown;
}

export function liveCore(opts: { vault?: TokenVault; saved?: SavedSessionsStore; live?: LiveUpdatesOptions; fetch?: typeof fetch } = {}) {
  const emitted: Emitted[] = [];
  const lines: string[] = [];
  const secrets = createSecretRegistry();
  const core = createMainCore({
    vault: opts.vault ?? memoryVault(),
    ...(opts.saved ? { savedSessions: opts.saved } : {}),
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
    logger: redactingLogger((level, line) => lines.push(`${level} ${line}`), () => secrets.values()),
    secrets,
    liveUpdates: { reconnectionDelayMs: 20, reconnectionDelayMaxMs: 50, credentialRetryMs: { baseMs: 20, maxMs: 50 }, ...opts.live },
  });
  const waiters: { match: (e: Emitted) => boolean; resolve: (e: Emitted) => void }[] = [];
  core.onEvent((name, payload) => {
    const e = { name, payload };
    emitted.push(e);
    for (const w of [...waiters]) {
      if (!w.match(e)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(e);
    }
  });
  const next = (match: (e: Emitted) => boolean, from = emitted.length) => {
    const seen = emitted.slice(from).find(match);
    return seen ? Promise.resolve(seen) : new Promise<Emitted>((resolve) => waiters.push({ match, resolve }));
  };
  return { core, emitted, lines, next };
}
export type LiveCore = ReturnType<typeof liveCore>;

export const isStatus = (state: string) => (e: Emitted) => e.name === 'live.status' && (e.payload as { state: string }).state === state;
export const liveEvent =
  (type: string, match: (p: Record<string, unknown>) => boolean = () => true) =>
  (e: Emitted) =>
    e.name === 'live.event' && (e.payload as { type: string }).type === type && match(e.payload as Record<string, unknown>);
