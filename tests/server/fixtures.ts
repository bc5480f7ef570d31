// Shared helpers for the conformance suite: paths, picking demo records by SQL, recording events,
// and checking that an error body has one of the spec's shapes.
import { expect } from 'vitest';
import type { DomainEvent } from '../../server/events/bus';
import type { DemoService } from '../support/demo-service';

export const accountPath = (svc: DemoService, accountId = svc.creds.accountId) => `/api/v1/accounts/${accountId}`;

export function userIdOf(svc: DemoService, email: string): number {
  return (svc.db.prepare('SELECT id FROM users WHERE email = ?').get(email) as { id: number }).id;
}

export const ADMIN_EMAIL = 'alex@acme.example';
export const AGENT_EMAIL = 'sam@acme.example';

/** A conversation's display id matching a SQL condition on `c` (conversations) and `i` (its inbox). */
export function pickConversation(svc: DemoService, where: string, ...args: unknown[]): number {
  const row = svc.db
    .prepare(`SELECT c.display_id FROM conversations c JOIN inboxes i ON i.id = c.inbox_id WHERE c.account_id = ? AND ${where} ORDER BY c.id LIMIT 1`)
    .get(svc.creds.accountId, ...args) as { display_id: number } | undefined;
  if (!row) throw new Error(`no demo conversation where ${where}`);
  return row.display_id;
}

/** Display ids of conversations the demo agent (Sam) can see, in inboxes of a given channel. */
export function agentConversation(svc: DemoService, extra = '1 = 1', ...args: unknown[]): number {
  return pickConversation(svc, `c.inbox_id IN (SELECT inbox_id FROM inbox_members WHERE user_id = (SELECT id FROM users WHERE email = '${AGENT_EMAIL}')) AND ${extra}`, ...args);
}

export function hiddenFromAgent(svc: DemoService): number {
  return pickConversation(svc, `c.inbox_id NOT IN (SELECT inbox_id FROM inbox_members WHERE user_id = (SELECT id FROM users WHERE email = '${AGENT_EMAIL}'))`);
}

export function conversationRow(svc: DemoService, displayId: number) {
  return svc.db.prepare('SELECT * FROM conversations WHERE account_id = ? AND display_id = ?').get(svc.creds.accountId, displayId) as Record<string, unknown> & { id: number };
}

/** Records bus events from now on. */
export function recordEvents(svc: DemoService) {
  const events: DomainEvent[] = [];
  const off = svc.bus.on((e) => events.push(e));
  return { events, names: () => events.map((e) => e.name), clear: () => (events.length = 0), off };
}

/** The spec's error shapes (Errors table); 429 is checked separately (text/plain). */
export function expectSpecErrorShape(body: unknown, context = '') {
  const b = body as Record<string, unknown> | undefined;
  const ok =
    !!b &&
    typeof b === 'object' &&
    ((typeof b.error === 'string' && Object.keys(b).length === 1) ||
      (typeof b.message === 'string' && Array.isArray(b.attributes) && b.attributes.every((a) => typeof a === 'string') && Object.keys(b).length === 2) ||
      (Array.isArray(b.errors) && b.errors.every((e) => typeof e === 'string') && Object.keys(b).length === 1));
  expect(ok, `${context}: ${JSON.stringify(body)}`).toBe(true);
}

/** The last message of a conversation (by DB id). */
export function lastMessageOf(svc: DemoService, conversationDbId: number) {
  return svc.db.prepare('SELECT * FROM messages WHERE conversation_id = ? ORDER BY id DESC LIMIT 1').get(conversationDbId) as { content: string; message_type: number; private: number };
}
