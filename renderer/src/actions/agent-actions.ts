// The agent's actions in the terms of the inbox: resolve these, label those, send this reply.
// Each builds its intent from the conversation as cached inside perform's transaction (so "add
// label vip" becomes that conversation's full set with vip in it), queues it, and wakes the
// session's sender (`kick`), which sends it. The session client binds these (`client.actions`).
import type { ConversationStatus, Priority } from '../../../shared/api/records';
import type { InboxDb, QueuedFile } from '../db/schema';
import { rebaseLater } from './deliver';
import type { Cached, Intent, LabelChange, Person } from '../model/intent';
import { applyIntent, isLocalMessage, normalizeLabels, withLabelChange } from '../model/intent';
import type { InFlightActions } from './in-flight';
import type { Performed } from './perform';
import { perform } from './perform';
import { summaryOf } from './outbox-files';

export interface ActionContext {
  db: InboxDb;
  /** The signed-in agent: sender of messages, "assign to me". */
  me: Person;
  /** Wakes the session's outbox sender once something was queued. */
  kick?: () => void;
  /** The session's actions shown before their write commits (the list reads them synchronously). */
  inFlight?: InFlightActions;
}

async function act(ctx: ActionContext, ids: readonly number[], intentFor: (cached: Cached, id: number) => Intent | undefined, files?: readonly QueuedFile[]): Promise<Performed[]> {
  const at = Date.now();
  // Shown from here, synchronously in the key handler; the durable write follows.
  const n = ctx.inFlight?.begin(ids, intentFor, at);
  try {
    const done = await perform(ctx.db, ids, intentFor, { now: () => at, ...(files ? { files } : {}) });
    if (n !== undefined) ctx.inFlight?.committed(n);
    if (done.length) ctx.kick?.();
    return done;
  } catch (err) {
    // Not queued, so not shown: the change goes from the screen (the caller says so).
    if (n !== undefined) ctx.inFlight?.drop(n);
    throw err;
  }
}

/** `snoozedUntil` (epoch seconds) only with `snoozed`; null there means "until the next reply". */
export const setStatus = (ctx: ActionContext, ids: readonly number[], status: ConversationStatus, snoozedUntil: number | null = null) =>
  act(ctx, ids, () => ({ kind: 'status', status, snoozedUntil: status === 'snoozed' ? snoozedUntil : null }));

export const setPriority = (ctx: ActionContext, ids: readonly number[], priority: Priority | null) => act(ctx, ids, () => ({ kind: 'priority', priority }));

export const assign = (ctx: ActionContext, ids: readonly number[], assignee: Person | null) => act(ctx, ids, () => ({ kind: 'assignee', assignee }));

export const assignTeam = (ctx: ActionContext, ids: readonly number[], team: Person | null) => act(ctx, ids, () => ({ kind: 'team', team }));

/**
 * Adds and removes labels. The service replaces the whole set, so each conversation gets its own
 * full intended set: what it has now, minus `remove`, plus `add`; unchanged sets send nothing. A
 * conversation not cached yet (just opened, its record still on its way) gets the change itself:
 * the sender applies it to the service's set when it goes (a partial set would wipe the rest).
 */
export const changeLabels = (ctx: ActionContext, ids: readonly number[], change: { add?: readonly string[]; remove?: readonly string[] }) =>
  act(ctx, ids, (cached) => {
    const asked: LabelChange = { add: normalizeLabels(change.add ?? []), remove: normalizeLabels(change.remove ?? []) };
    if (!cached.row && !cached.record) return asked.add.length || asked.remove.length ? { kind: 'labels', labels: asked.add, change: asked } : undefined;
    const current = normalizeLabels(cached.row?.labels ?? cached.record?.labels ?? []);
    const labels = withLabelChange(current, asked);
    return labels.join('\n') === current.join('\n') ? undefined : { kind: 'labels', labels };
  });

/** Marks read when the cache shows something unread (opening a conversation does this). */
export const markRead = (ctx: ActionContext, ids: readonly number[]) =>
  act(ctx, ids, (cached) => ((cached.row?.unreadCount ?? 1) > 0 ? { kind: 'read' } : undefined));

export const markUnread = (ctx: ActionContext, ids: readonly number[]) => act(ctx, ids, () => ({ kind: 'unread' }));

/** Queues a reply or a private note; its draft goes in the same commit. */
/** A message, with `files` when given (their bytes are kept with it in the outbox until the service has it). */
export async function sendMessage(ctx: ActionContext, conversationId: number, content: string, isPrivate: boolean, files: readonly QueuedFile[] = []): Promise<Performed> {
  const withFiles = files.length ? { files: summaryOf(files) } : {};
  const [done] = await act(ctx, [conversationId], () => ({ kind: 'message', content, private: isPrivate, sender: ctx.me, ...withFiles }), files.length ? files : undefined);
  return done!;
}

/** A parked (failed) or waiting message goes again now, keeping its place and client id. */
export async function retryMessage(ctx: Pick<ActionContext, 'db' | 'kick'>, seq: number): Promise<void> {
  await ctx.db.outbox.where('seq').equals(seq).modify((e) => {
    if (e.state === 'failed' || e.state === 'queued') Object.assign(e, { state: 'queued', nextAttemptAt: 0 });
  });
  ctx.kick?.();
}

/** Drops a message that is not on its way (failed, or waiting to retry), with its optimistic copy. */
export async function discardMessage(db: InboxDb, seq: number): Promise<boolean> {
  return db.transaction('rw', db.outbox, db.messages, db.outboxFiles, async () => {
    const e = await db.outbox.get(seq);
    if (!e || e.kind !== 'message' || (e.state !== 'failed' && e.state !== 'queued')) return false;
    await db.outbox.delete(seq);
    await db.outboxFiles.delete(e.clientId);
    const local = await db.messages.where('[conversation_id+id]').between([e.conversationId, 0], [e.conversationId, Infinity]).filter((m) => isLocalMessage(m) && m.echo_id === e.clientId).primaryKeys();
    await db.messages.bulkDelete(local);
    return true;
  });
}

/**
 * A change parked because someone else changed the same thing first: `apply` queues it again as the
 * agent's deliberate choice (decided on what the service has now, so it goes), `drop` forgets it
 * and leaves the service's value. Later queued changes of the same kind are rebased on what shows.
 */
export async function resolveConflict(ctx: Pick<ActionContext, 'db' | 'kick'>, seq: number, choice: 'apply' | 'drop'): Promise<boolean> {
  const db = ctx.db;
  const done = await db.transaction('rw', [db.outbox, db.conversations, db.conversationRecords], async () => {
    const e = await db.outbox.get(seq);
    if (!e || e.state !== 'conflict') return undefined;
    const now = { row: await db.conversations.get(e.conversationId), record: (await db.conversationRecords.get(e.conversationId))?.record };
    if (choice === 'drop') {
      await db.outbox.delete(seq);
      return { entry: e, record: now.record };
    }
    await db.outbox.update(seq, { state: 'queued', conflict: undefined, before: now, nextAttemptAt: 0, attempts: 0 });
    const after = applyIntent(now, e.payload, Date.now());
    if (after.row) await db.conversations.put(after.row);
    if (after.record) await db.conversationRecords.put({ id: e.conversationId, record: after.record });
    return { entry: e, record: undefined };
  });
  if (!done) return false;
  if (done.record) await rebaseLater(db, done.entry, done.record, [done.entry.kind]);
  ctx.kick?.();
  return true;
}
