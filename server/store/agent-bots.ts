// Agent bots (chatwoot-compat §0, §1.15 `A/agent_bots`) and the bot of each inbox (agent_bot_inboxes).
// A bot's access token is an access_tokens row owned by it; provision.ts#createAgentBot makes both.
import type { Db } from '../db/open';
import { stmt } from '../db/open';

export interface BotRow {
  id: number;
  account_id: number | null;
  name: string;
  description: string | null;
  outgoing_url: string | null;
  created_at: number;
}

export function botById(db: Db, id: number): BotRow | undefined {
  return stmt(db, 'SELECT * FROM agent_bots WHERE id = ?').get(id) as BotRow | undefined;
}

/** The account's own bots (not the installation's, which have no account). */
export const agentBotsOfAccount = (db: Db, accountId: number) => stmt(db, 'SELECT * FROM agent_bots WHERE account_id = ? ORDER BY id').all(accountId) as BotRow[];

export const agentBotToken = (db: Db, botId: number) =>
  (stmt(db, "SELECT token FROM access_tokens WHERE owner_type = 'AgentBot' AND owner_id = ?").get(botId) as { token: string } | undefined)?.token ?? null;

export function updateAgentBot(db: Db, bot: BotRow, change: { name?: string | undefined; description?: string | null | undefined; outgoingUrl?: string | null | undefined }): BotRow {
  stmt(db, 'UPDATE agent_bots SET name = ?, description = ?, outgoing_url = ? WHERE id = ?').run(
    change.name ?? bot.name,
    change.description === undefined ? bot.description : change.description,
    change.outgoingUrl === undefined ? bot.outgoing_url : change.outgoingUrl,
    bot.id,
  );
  return botById(db, bot.id)!;
}

/** Deletes a bot, its token and its inbox attachments; conversations it was assigned to become unassigned. */
export function deleteAgentBot(db: Db, botId: number) {
  db.transaction(() => {
    stmt(db, 'UPDATE conversations SET assignee_agent_bot_id = NULL WHERE assignee_agent_bot_id = ?').run(botId);
    stmt(db, 'DELETE FROM agent_bot_inboxes WHERE agent_bot_id = ?').run(botId);
    stmt(db, "DELETE FROM access_tokens WHERE owner_type = 'AgentBot' AND owner_id = ?").run(botId);
    stmt(db, 'DELETE FROM agent_bots WHERE id = ?').run(botId);
  })();
}

export const botOfInbox = (db: Db, inboxId: number) =>
  stmt(db, 'SELECT b.* FROM agent_bots b JOIN agent_bot_inboxes ab ON ab.agent_bot_id = b.id WHERE ab.inbox_id = ?').get(inboxId) as BotRow | undefined;

/** Attaches a bot to an inbox (replacing its bot), or detaches it with null. */
export function setInboxBot(db: Db, inboxId: number, botId: number | null) {
  if (botId === null) stmt(db, 'DELETE FROM agent_bot_inboxes WHERE inbox_id = ?').run(inboxId);
  else stmt(db, "INSERT INTO agent_bot_inboxes (inbox_id, agent_bot_id, status) VALUES (?, ?, 'active') ON CONFLICT (inbox_id) DO UPDATE SET agent_bot_id = excluded.agent_bot_id").run(inboxId, botId);
}

/** Whether the bot is attached to the inbox. */
export const botAttachedTo = (db: Db, botId: number, inboxId: number) => Boolean(stmt(db, 'SELECT 1 FROM agent_bot_inboxes WHERE agent_bot_id = ? AND inbox_id = ?').get(botId, inboxId));
