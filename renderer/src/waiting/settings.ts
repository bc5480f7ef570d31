// The agent's waiting-time colours, per session: kept in the session's cache (`settings` table,
// beside the notification rules), not in the app-wide preferences. How long is too long is the
// account's service target (a chat queue answers in minutes, an email queue in hours), so two
// accounts signed in on one computer keep their own, every window of a session shows the same,
// and signing out of the account takes them with its cache. Read field by field over the
// defaults, so a damaged row falls back instead of failing.
import * as z from 'zod/mini';
import type { InboxDb } from '../db/schema';
import type { WaitingThresholds } from '../model/waiting';
import { checkThresholds, defaultWaitingThresholds } from '../model/waiting';
import { WAITING_SETTINGS_KEY } from './settings-key';

export { WAITING_SETTINGS_KEY };

const minutes = z.int().check(z.minimum(1), z.maximum(60 * 24 * 30));
const schema = z.object({ warnMinutes: minutes, alertMinutes: minutes });

/** What was stored, over the defaults; a pair out of order falls back whole. */
export function readThresholds(stored: unknown): WaitingThresholds {
  const parsed = schema.safeParse(stored);
  if (!parsed.success || checkThresholds(parsed.data)) return defaultWaitingThresholds;
  return parsed.data;
}

/** Stores the agent's choice; refuses (with the reason) a pair that makes no sense. */
export async function saveThresholds(db: InboxDb, t: WaitingThresholds): Promise<string | undefined> {
  const problem = checkThresholds(t);
  if (problem) return problem;
  await db.settings.put({ key: WAITING_SETTINGS_KEY, value: { warnMinutes: t.warnMinutes, alertMinutes: t.alertMinutes } });
  return undefined;
}
