// Creating accounts, users, tokens and inboxes. Used by the demo seed and the admin CLI, so the
// demo is built the same way a real installation is.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/open';
import { stmt } from '../db/open';

/** Unguessable secrets: access tokens, website tokens, HMAC tokens, pubsub tokens. */
export const secret = (bytes = 24) => randomBytes(bytes).toString('base64url');

export function createAccount(db: Db, name: string, now: number): number {
  return Number(stmt(db, 'INSERT INTO accounts (name, created_at) VALUES (?, ?)').run(name, now).lastInsertRowid);
}

export function createUser(db: Db, u: { name: string; email: string; displayName?: string }, now: number) {
  const id = Number(
    stmt(db, 'INSERT INTO users (name, display_name, email, pubsub_token, created_at) VALUES (?, ?, ?, ?, ?)').run(
      u.name,
      u.displayName ?? null,
      u.email.toLowerCase(),
      secret(),
      now,
    ).lastInsertRowid,
  );
  const token = secret();
  stmt(db, "INSERT INTO access_tokens (token, owner_type, owner_id) VALUES (?, 'User', ?)").run(token, id);
  return { id, token };
}

export function addToAccount(db: Db, accountId: number, userId: number, role: 'administrator' | 'agent', activeAt: number | null = null) {
  stmt(db, 'INSERT INTO account_users (account_id, user_id, role, active_at) VALUES (?, ?, ?, ?)').run(accountId, userId, role, activeAt);
}

export type ChannelKind = 'api' | 'web_widget' | 'email';
const channelTypes: Record<ChannelKind, string> = { api: 'Channel::Api', web_widget: 'Channel::WebWidget', email: 'Channel::Email' };

export function createInbox(
  db: Db,
  accountId: number,
  i: { name: string; kind: ChannelKind; hmacMandatory?: boolean; websiteUrl?: string; webhookUrl?: string; settings?: Record<string, unknown> },
  now: number,
) {
  const channelType = channelTypes[i.kind];
  const channelId = (stmt(db, 'SELECT COUNT(*) AS n FROM inboxes WHERE channel_type = ?').get(channelType) as { n: number }).n + 1;
  const identifier = i.kind === 'api' ? secret(18) : null;
  const websiteToken = i.kind === 'web_widget' ? secret(18) : null;
  const hmacToken = secret(24);
  const settings = { website_url: i.websiteUrl ?? null, ...(i.settings ?? {}) };
  const id = Number(
    stmt(
      db,
      `INSERT INTO inboxes (account_id, name, channel_type, channel_id, identifier, website_token, hmac_token, hmac_mandatory, webhook_url, settings, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(accountId, i.name, channelType, channelId, identifier, websiteToken, hmacToken, i.hmacMandatory ? 1 : 0, i.webhookUrl ?? null, JSON.stringify(settings), now)
      .lastInsertRowid,
  );
  return { id, identifier, websiteToken, hmacToken };
}

export function addInboxMember(db: Db, inboxId: number, userId: number) {
  stmt(db, 'INSERT OR IGNORE INTO inbox_members (inbox_id, user_id) VALUES (?, ?)').run(inboxId, userId);
}

export function createContactInbox(db: Db, contactId: number, inboxId: number, now: number, sourceId: string = randomUUID()) {
  const id = Number(
    stmt(db, 'INSERT INTO contact_inboxes (contact_id, inbox_id, source_id, pubsub_token, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(
      contactId,
      inboxId,
      sourceId,
      secret(),
      now,
      now,
    ).lastInsertRowid,
  );
  return { id, sourceId };
}

/**
 * Next per-account conversation number (the `display_id` used in URLs). A sequence on the account,
 * so deleting the newest conversation never hands its number to the next one (clients cache by it).
 */
export function nextDisplayId(db: Db, accountId: number): number {
  const row = stmt(
    db,
    `UPDATE accounts SET conversation_seq = MAX(conversation_seq, (SELECT COALESCE(MAX(display_id), 0) FROM conversations WHERE account_id = ?)) + 1
     WHERE id = ? RETURNING conversation_seq AS next`,
  ).get(accountId, accountId) as { next: number } | undefined;
  if (!row) throw new Error(`No account ${accountId}`);
  return row.next;
}

/** An agent bot with its access token; `accountId` null for a bot that reaches accounts only through inboxes it is attached to. */
export function createAgentBot(db: Db, accountId: number | null, b: { name: string; description?: string; outgoingUrl?: string }, now: number) {
  const id = Number(
    stmt(db, 'INSERT INTO agent_bots (account_id, name, description, outgoing_url, created_at) VALUES (?, ?, ?, ?, ?)').run(accountId, b.name, b.description ?? null, b.outgoingUrl ?? null, now)
      .lastInsertRowid,
  );
  const token = secret();
  stmt(db, "INSERT INTO access_tokens (token, owner_type, owner_id) VALUES (?, 'AgentBot', ?)").run(token, id);
  return { id, token };
}

/** Puts a bot on an inbox; an active bot makes the inbox's new conversations start pending. */
export function attachAgentBot(db: Db, inboxId: number, botId: number, status: 'active' | 'inactive' = 'active') {
  stmt(db, 'INSERT INTO agent_bot_inboxes (inbox_id, agent_bot_id, status) VALUES (?, ?, ?) ON CONFLICT (inbox_id) DO UPDATE SET agent_bot_id = excluded.agent_bot_id, status = excluded.status').run(inboxId, botId, status);
}
