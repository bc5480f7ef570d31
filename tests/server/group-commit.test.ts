// Group commit (server/store/group-commit.ts): the writes submitted in one event-loop turn share one
// transaction, and every client still gets what a write committed alone would give it.
import Database from 'better-sqlite3';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/open';
import { migrate } from '../../server/db/open';
import { seedDemo } from '../../server/demo/seed';
import type { DomainEvent } from '../../server/events/bus';
import { EventBus } from '../../server/events/bus';
import type { ConversationRow } from '../../server/store/conversations';
import type { GroupedWrite } from '../../server/store/group-commit';
import { GroupCommit } from '../../server/store/group-commit';
import { createContact, createConversation, createMessage } from '../../server/store/writes';
import { recordEvents } from './fixtures';
import { clientPath, createClientContact } from '../support/public-api';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';

/** Commits in the WAL since it was last emptied: frames of the current salts whose header gives the database's size (a commit frame). */
function walCommits(file: string): number {
  let wal: Buffer;
  try {
    wal = readFileSync(`${file}-wal`);
  } catch {
    return 0;
  }
  if (wal.length < 32) return 0;
  const pageSize = wal.readUInt32BE(8);
  const salts = wal.subarray(16, 24);
  let commits = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (!wal.subarray(at + 8, at + 16).equals(salts)) break;
    if (wal.readUInt32BE(at + 4) !== 0) commits++;
  }
  return commits;
}

describe('GroupCommit on a WAL database file', () => {
  let dir: string;
  let file: string;
  let db: Db;
  let bus: EventBus;
  let events: DomainEvent[];
  let conversations: ConversationRow[];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    file = join(dir, 'db.sqlite');
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.pragma('foreign_keys = ON');
    migrate(db);
    const creds = seedDemo(db, Date.now());
    bus = new EventBus();
    conversations = [1, 2, 3].map((i) => {
      const ctx = { db, bus, now: Date.now() };
      const contact = createContact(ctx, { accountId: creds.accountId, name: `Group ${i}` });
      return createConversation(ctx, { accountId: creds.accountId, inboxId: creds.apiInboxId, contactId: contact.id, contactInboxId: null });
    });
    events = [];
    bus.on((e) => events.push(e));
    db.pragma('wal_checkpoint(TRUNCATE)');
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const messagesIn = (c: ConversationRow) => (db.prepare('SELECT content FROM messages WHERE conversation_id = ? ORDER BY id').all(c.id) as { content: string }[]).map((m) => m.content);

  /** A contact's incoming message into `c`, as the Client create does it. */
  const create = (group: GroupCommit, c: ConversationRow, content: string, extra: { fresh?: boolean[]; after?: () => void } = {}): GroupedWrite<string> => ({
    readEpoch: group.epoch,
    prepare: (fresh) => {
      extra.fresh?.push(fresh);
      const conversation = fresh ? (db.prepare('SELECT * FROM conversations WHERE id = ?').get(c.id) as ConversationRow) : c;
      return {
        keys: [`conversation:${c.id}`, `contact:${c.contact_id}`],
        run: () => {
          createMessage({ db, bus, now: Date.now() }, { conversation, messageType: 0, content, sender: { type: 'Contact', id: c.contact_id } });
          extra.after?.();
          return content;
        },
      };
    },
  });

  it('commits the writes of one turn once', async () => {
    const group = new GroupCommit(db, bus);
    const answers = await Promise.all(conversations.map((c, i) => group.submit(create(group, c, `together ${i}`))));
    expect(answers).toEqual(['together 0', 'together 1', 'together 2']);
    expect(walCommits(file)).toBe(1);
    conversations.forEach((c, i) => expect(messagesIn(c)).toEqual([`together ${i}`]));
    expect(events.filter((e) => e.name === 'message.created')).toHaveLength(3);
    // Alone, each commit is its own (what the service did before).
    for (const c of conversations) createMessage({ db, bus, now: Date.now() }, { conversation: c, messageType: 0, content: 'alone', sender: { type: 'Contact', id: c.contact_id } });
    expect(walCommits(file)).toBe(4);
  });

  it('answers and emits only after the commit: another connection already sees the write', async () => {
    const group = new GroupCommit(db, bus);
    const other = new Database(file, { readonly: true });
    const seen: string[][] = [];
    bus.on((e) => {
      if (e.name === 'message.created') seen.push((other.prepare('SELECT content FROM messages WHERE id = ?').all(e.messageId) as { content: string }[]).map((m) => m.content));
    });
    const answered = group.submit(create(group, conversations[0]!, 'visible'));
    expect(messagesIn(conversations[0]!)).toEqual([]); // nothing runs before the turn's end
    await answered;
    other.close();
    expect(seen).toEqual([['visible']]);
  });

  it('a write that fails is rolled back alone, emits nothing and gets its own error; the others commit', async () => {
    const group = new GroupCommit(db, bus);
    const [a, b, c] = conversations as [ConversationRow, ConversationRow, ConversationRow];
    const failing = create(group, b, 'broken', {
      after: () => {
        throw new Error('its answer could not be made');
      },
    });
    const results = await Promise.allSettled([group.submit(create(group, a, 'first')), group.submit(failing), group.submit(create(group, c, 'third'))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('its answer could not be made'));
    // Its message was inserted before it threw: the savepoint took it back.
    expect([messagesIn(a), messagesIn(b), messagesIn(c)]).toEqual([['first'], [], ['third']]);
    const created = events.flatMap((e) => (e.name === 'message.created' ? [e.conversationId] : []));
    expect(created).toEqual([a.id, c.id]);
    expect(walCommits(file)).toBe(1);
  });

  it('a commit that fails answers every write of the group with its error and emits nothing', async () => {
    const group = new GroupCommit(db, bus);
    const [a, b, c] = conversations as [ConversationRow, ConversationRow, ConversationRow];
    // A foreign key checked only at COMMIT (deferred), broken by the second write: the commit fails.
    const breaksCommit = create(group, b, 'dangling', {
      after: () => {
        db.pragma('defer_foreign_keys = ON');
        db.prepare('UPDATE messages SET conversation_id = 999999 WHERE content = ?').run('dangling');
      },
    });
    const results = await Promise.allSettled([group.submit(create(group, a, 'first')), group.submit(breaksCommit), group.submit(create(group, c, 'third'))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const r of results) expect(String((r as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY constraint failed/);
    expect(db.inTransaction).toBe(false);
    expect([messagesIn(a), messagesIn(b), messagesIn(c)]).toEqual([[], [], []]);
    expect(events).toEqual([]);
    expect(walCommits(file)).toBe(0);
    // The next turn's writes commit as usual.
    await group.submit(create(group, a, 'later'));
    expect(messagesIn(a)).toEqual(['later']);
  });

  it('reads again when this connection wrote since the reads, and not otherwise', async () => {
    const group = new GroupCommit(db, bus);
    const [a, b] = conversations as [ConversationRow, ConversationRow];
    const fresh: boolean[] = [];
    await group.submit(create(group, a, 'settles the group', { fresh }));
    await group.submit(create(group, a, 'nothing between', { fresh }));
    const pending = group.submit(create(group, b, 'after a write', { fresh }));
    db.prepare("UPDATE conversations SET status = 'resolved' WHERE id = ?").run(b.id);
    await pending;
    // The first had no group before it to compare with; the third saw the status change.
    expect(fresh).toEqual([true, false, true]);
    // Read again, the create saw the resolved conversation and reopened it, as it would alone.
    const reopened = events.find((e) => e.name === 'conversation.status_changed');
    expect(reopened).toMatchObject({ conversationId: b.id, changes: { status: ['resolved', 'open'] } });
  });

  it('reads again when another connection wrote since the reads', async () => {
    const group = new GroupCommit(db, bus);
    const [a] = conversations as [ConversationRow];
    const fresh: boolean[] = [];
    await group.submit(create(group, a, 'settles the group', { fresh }));
    const other = new Database(file);
    const pending = group.submit(create(group, a, 'after another write', { fresh }));
    other.prepare("UPDATE conversations SET status = 'snoozed' WHERE id = ?").run(a.id);
    other.close();
    await pending;
    expect(fresh).toEqual([true, true]);
  });

  it('a write of a row an earlier write of the group changed waits for that one to commit and emit, then reads again', async () => {
    const group = new GroupCommit(db, bus);
    const [a, b] = conversations as [ConversationRow, ConversationRow];
    await group.submit(create(group, b, 'settles the group'));
    events.length = 0;
    const fresh: boolean[] = [];
    const eventsBeforeSecond: string[] = [];
    const second = create(group, a, 'second', { fresh, after: () => eventsBeforeSecond.push(...events.map((e) => e.name)) });
    await Promise.all([group.submit(create(group, a, 'first', { fresh })), group.submit(second)]);
    // The second was prepared once with the first (found in conflict), then again, fresh.
    expect(fresh).toEqual([false, false, true]);
    expect(eventsBeforeSecond).toEqual(['message.created', 'conversation.updated']);
    expect(messagesIn(a)).toEqual(['first', 'second']);
    expect(walCommits(file)).toBe(3);
  });
});

describe('the Client message create, grouped', () => {
  let svc: DemoService;
  /** Runs after the create's handler has submitted its write and before its group commits. */
  let between: { url: string; run: () => void } | undefined;
  beforeEach(async () => {
    svc = await demoService();
    between = undefined;
    // The handler runs right after the preHandler hooks, in the same synchronous run; a microtask
    // queued here runs after it has submitted the write and before the group's setImmediate.
    svc.app.addHook('preHandler', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
      const now = between;
      if (now && request.url === now.url) queueMicrotask(now.run);
      done();
    });
  });
  afterEach(() => svc.close());

  async function createWith(run: (displayId: number) => void) {
    const c = await createClientContact(svc, svc.creds.apiInboxIdentifier, { name: 'Grouped' });
    const conv = (await svc.request({ method: 'POST', url: clientPath(svc.creds.apiInboxIdentifier, `/contacts/${c.source_id}/conversations`), payload: {} })).body as { id: number };
    const url = clientPath(svc.creds.apiInboxIdentifier, `/contacts/${c.source_id}/conversations/${conv.id}/messages`);
    between = { url, run: () => run(conv.id) };
    const { events } = recordEvents(svc);
    const res = await svc.request({ method: 'POST', url, payload: { content: 'meanwhile' } });
    return { res, events, displayId: conv.id };
  }

  it('reads the conversation again when it changed after the scope read it: the create reopens it, as alone', async () => {
    const { res, events, displayId } = await createWith((id) => {
      svc.db.prepare("UPDATE conversations SET status = 'resolved' WHERE account_id = ? AND display_id = ?").run(svc.creds.accountId, id);
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ content: 'meanwhile', conversation_id: displayId });
    const status = events.find((e) => e.name === 'conversation.status_changed');
    expect(status).toMatchObject({ changes: { status: ['resolved', 'open'] } });
  });

  it('answers 404 when the conversation went away after the scope read it', async () => {
    const { res, events } = await createWith((id) => {
      svc.db.prepare('DELETE FROM conversations WHERE account_id = ? AND display_id = ?').run(svc.creds.accountId, id);
    });
    expect(res.status).toBe(404);
    expect(events.filter((e) => e.name === 'message.created')).toEqual([]);
  });
});
