// Changing a conversation: status (with snooze), priority, assignee (user or agent bot), team,
// labels and custom attributes. One function does the bookkeeping for every caller: it computes
// the [previous, current] changes, writes them, records activity messages in the timeline, and
// emits the domain events (status_changed, assignee.changed, team.changed, conversation.updated)
// after the transaction commits, as chatwoot-compat §4.3 describes.
import type { Db } from '../db/open';
import { json, stmt } from '../db/open';
import type { Changes, DomainEvent } from '../events/bus';
import { botById } from './agent-bots';
import { userById } from './users';
import { activityText } from './activity';
import type { Precondition } from '../http/preconditions';
import type { ConversationRow } from './conversations';
import { labelsOf, requireRevision } from './conversations';
import type { WriteContext } from './writes';
import { commit, insertMessage } from './writes';

export type Status = ConversationRow['status'];
export type Priority = NonNullable<ConversationRow['priority']>;

export interface ConversationChange {
  status?: Status;
  /** Kept only while the conversation is snoozed; null means "until the next reply". */
  snoozedUntil?: number | null;
  priority?: Priority | null;
  /** A user, or an agent bot; assigning one clears the other. `null` unassigns. */
  assignee?: { userId: number | null } | { botId: number | null };
  teamId?: number | null;
  labels?: string[];
  customAttributes?: Record<string, unknown>;
}

export interface UpdateContext extends WriteContext {
  /** The name activity messages credit (the acting user or bot). */
  actorName: string;
}

const teamName = (db: Db, id: number | null) =>
  id == null ? null : ((stmt(db, 'SELECT name FROM teams WHERE id = ?').get(id) as { name: string } | undefined)?.name ?? null);
const userName = (db: Db, id: number | null) => {
  const u = id == null ? undefined : userById(db, id);
  return u ? u.display_name || u.name : null;
};

/** A member of the team who is also in the conversation's inbox and online, with the fewest open conversations. */
function pickTeamAssignee(db: Db, c: ConversationRow, teamId: number): number | null {
  const row = stmt(
    db,
    `SELECT tm.user_id AS id FROM team_members tm
     JOIN inbox_members im ON im.user_id = tm.user_id AND im.inbox_id = ?
     JOIN account_users au ON au.user_id = tm.user_id AND au.account_id = ? AND au.availability = 'online'
     WHERE tm.team_id = ?
     ORDER BY (SELECT COUNT(*) FROM conversations o WHERE o.assignee_id = tm.user_id AND o.status = 'open'), tm.user_id LIMIT 1`,
  ).get(c.inbox_id, c.account_id, teamId) as { id: number } | undefined;
  return row?.id ?? null;
}

const isTeamMember = (db: Db, teamId: number, userId: number) => Boolean(stmt(db, 'SELECT 1 FROM team_members WHERE team_id = ? AND user_id = ?').get(teamId, userId));

/** Applies a change inside the caller's transaction; events go to `events`. Returns the fresh row. */
export function applyConversationChange(ctx: UpdateContext, c: ConversationRow, change: ConversationChange, events: DomainEvent[]): ConversationRow {
  const db = ctx.db;
  const next = {
    status: change.status ?? c.status,
    snoozed_until: c.snoozed_until,
    priority: change.priority === undefined ? c.priority : change.priority,
    assignee_id: c.assignee_id,
    assignee_agent_bot_id: c.assignee_agent_bot_id,
    team_id: change.teamId === undefined ? c.team_id : change.teamId,
  };
  if (change.status !== undefined) next.snoozed_until = change.status === 'snoozed' ? (change.snoozedUntil ?? null) : null;
  if (change.assignee && 'userId' in change.assignee) {
    next.assignee_id = change.assignee.userId;
    if (next.assignee_id !== null) next.assignee_agent_bot_id = null;
  } else if (change.assignee) {
    next.assignee_agent_bot_id = change.assignee.botId;
    if (next.assignee_agent_bot_id !== null) next.assignee_id = null;
  }
  if (next.team_id !== c.team_id && next.team_id !== null) {
    // The reference service keeps the assignee only if they are in the new team, then lets a team
    // with auto-assignment pick one.
    if (next.assignee_id !== null && !isTeamMember(db, next.team_id, next.assignee_id)) next.assignee_id = null;
    const team = stmt(db, 'SELECT allow_auto_assign FROM teams WHERE id = ?').get(next.team_id) as { allow_auto_assign: number } | undefined;
    if (next.assignee_id === null && next.assignee_agent_bot_id === null && team?.allow_auto_assign === 1) next.assignee_id = pickTeamAssignee(db, c, next.team_id);
  }

  const changes: Changes = {};
  for (const key of Object.keys(next) as (keyof typeof next)[]) {
    if (next[key] !== c[key]) changes[key] = [c[key], next[key]];
  }
  const previousAttributes = json.parse(c.custom_attributes);
  const attributes = change.customAttributes;
  if (attributes && JSON.stringify(attributes) !== JSON.stringify(previousAttributes)) changes.custom_attributes = [previousAttributes, attributes];
  const previousLabels = labelsOf(db, c.id);
  const labels = change.labels ? [...new Set(change.labels)].sort() : undefined;
  if (labels && JSON.stringify(labels) !== JSON.stringify(previousLabels)) changes.label_list = [previousLabels, labels];
  if (Object.keys(changes).length === 0) return c;

  // Resolving stops the contact's wait, as Chatwoot's `handle_resolved_status_change` does, with no
  // event of its own (the status change's events carry the fresh row): a resolved conversation
  // never sorts among the waiting ones.
  stmt(
    db,
    `UPDATE conversations SET status = ?, snoozed_until = ?, priority = ?, assignee_id = ?, assignee_agent_bot_id = ?, team_id = ?,
       custom_attributes = ?, updated_at = ?, waiting_since = CASE WHEN ? = 'resolved' THEN NULL ELSE waiting_since END WHERE id = ?`,
  ).run(next.status, next.snoozed_until, next.priority, next.assignee_id, next.assignee_agent_bot_id, next.team_id, JSON.stringify(attributes ?? previousAttributes), ctx.now, next.status, c.id);
  if (changes.label_list) {
    stmt(db, 'DELETE FROM conversation_labels WHERE conversation_id = ?').run(c.id);
    for (const title of labels!) stmt(db, 'INSERT INTO conversation_labels (conversation_id, title) VALUES (?, ?)').run(c.id, title);
  }

  const base = { accountId: c.account_id, conversationId: c.id, ...(ctx.performer ? { performer: ctx.performer } : {}) };
  if (changes.status) events.push({ name: 'conversation.status_changed', ...base, changes: pick(changes, ['status', 'snoozed_until']) });
  if (changes.assignee_id || changes.assignee_agent_bot_id) events.push({ name: 'assignee.changed', ...base, changes: pick(changes, ['assignee_id', 'assignee_agent_bot_id']) });
  if (changes.team_id) events.push({ name: 'team.changed', ...base, changes: pick(changes, ['team_id']) });
  events.push({ name: 'conversation.updated', ...base, changes });

  let row = stmt(db, 'SELECT * FROM conversations WHERE id = ?').get(c.id) as ConversationRow;
  for (const text of activityLines(ctx, changes)) {
    insertMessage(ctx, { conversation: row, messageType: 2, content: text, sender: null }, events);
    row = stmt(db, 'SELECT * FROM conversations WHERE id = ?').get(c.id) as ConversationRow;
  }
  return row;
}

function pick(changes: Changes, keys: string[]): Changes {
  return Object.fromEntries(keys.filter((k) => k in changes).map((k) => [k, changes[k]!]));
}

function activityLines(ctx: UpdateContext, changes: Changes): string[] {
  const actor = ctx.actorName;
  const lines: string[] = [];
  if (changes.status) lines.push(activityText.status(changes.status[1] as Status, actor));
  if (changes.priority) lines.push(activityText.priority(changes.priority[0] as string | null, changes.priority[1] as string | null, actor));
  if (changes.team_id) lines.push(activityText.team(teamName(ctx.db, changes.team_id[1] as number | null), teamName(ctx.db, changes.team_id[0] as number | null), actor));
  if (changes.assignee_id || changes.assignee_agent_bot_id) {
    const userId = (changes.assignee_id?.[1] ?? null) as number | null;
    const botId = (changes.assignee_agent_bot_id?.[1] ?? null) as number | null;
    const name = userId !== null ? userName(ctx.db, userId) : botId !== null ? (botById(ctx.db, botId)?.name ?? null) : null;
    const self = userId !== null && ctx.performer?.type === 'user' && ctx.performer.id === userId;
    lines.push(activityText.assignee(name, actor, self));
  }
  if (changes.label_list) {
    const [before, after] = changes.label_list as [string[], string[]];
    lines.push(...activityText.labels(after.filter((l) => !before.includes(l)), before.filter((l) => !after.includes(l)), actor));
  }
  return lines;
}

/** One change in its own transaction; with a precondition (If-Match), checked in that transaction first. */
export const updateConversation = (ctx: UpdateContext, c: ConversationRow, change: ConversationChange, precondition?: Precondition) =>
  commit(ctx, (events) => {
    requireRevision(ctx.db, c.id, precondition);
    return applyConversationChange(ctx, c, change, events);
  });
