// What the write-path tests share: a fresh session cache seeded from the demo service, a bridge
// that can step in front of chosen calls (fail them, or let them through and then fail, as a lost
// answer would), a sender with short waits, and reads of the service's own state to compare with.
import type { DBCore, Middleware } from 'dexie';
import type { Conversation } from '../../../shared/api/records';
import type { Bridge } from '../../../shared/bridge/contract';
import type { Result } from '../../../shared/bridge/result';
import type { ActionContext } from '../../../renderer/src/actions/agent-actions';
import type { BackoffPolicy } from '../../../renderer/src/actions/retry-policy';
import { OutboxSender } from '../../../renderer/src/actions/sender';
import { InboxDb } from '../../../renderer/src/db/schema';
import { saveConversations } from '../../../renderer/src/db/save';
import type { DemoService } from '../../support/demo-service';
import { uniqueDbName } from '../fixtures';
import type { DemoBridge } from './demo-bridge';

export const fastBackoff: BackoffPolicy = { baseMs: 5, maxMs: 20, rateLimitedBaseMs: 5, landingWindowMs: 0 };

type Call = (name: string, input: unknown) => Promise<Result<unknown>>;
/** Answers a call itself, or passes it on with `through`. */
export type Interceptor = (name: string, input: Record<string, unknown>, through: () => Promise<Result<unknown>>) => Promise<Result<unknown>> | undefined;

export interface Steering {
  bridge: Bridge;
  /** Write calls as they went out, with the order they started and finished in (a contact's by its lane: the id negated). */
  log: { name: string; conversationId: number; phase: 'start' | 'end' }[];
  intercept(fn: Interceptor | undefined): void;
}

const WRITES = /^(conversations\.(toggleStatus|togglePriority|assign|assignTeam|setLabels|updateLastSeen|markUnread)|messages\.create|contacts\.(update|removeAttributes|setLabels|createNote|deleteNote))$/;
/** Calls that change something on the service (reads, and main's own answers, are the rest). */
export const isWriteCall = (name: string) => WRITES.test(name);

export function steer(demo: DemoBridge): Steering {
  let interceptor: Interceptor | undefined;
  const log: Steering['log'] = [];
  const call: Call = async (name, input) => {
    const args = (input ?? {}) as Record<string, unknown>;
    const write = WRITES.test(name);
    const lane = args.conversationId === undefined ? -Number(args.contactId) : Number(args.conversationId);
    if (write) log.push({ name, conversationId: lane, phase: 'start' });
    const through = () => demo.bridge.call(name as never, input as never) as Promise<Result<unknown>>;
    try {
      return await (interceptor?.(name, args, through) ?? through());
    } finally {
      if (write) log.push({ name, conversationId: lane, phase: 'end' });
    }
  };
  return { bridge: { call, on: demo.bridge.on } as unknown as Bridge, log, intercept: (fn) => (interceptor = fn) };
}

/** `middleware`: a Dexie middleware put on the cache before its first use (to watch what is read). */
export async function seededDb(demo: DemoBridge, ids: number[], middleware?: Middleware<DBCore>): Promise<InboxDb> {
  const db = new InboxDb(uniqueDbName('outbox'));
  if (middleware) db.use(middleware);
  for (const id of ids) {
    const r = await demo.bridge.call('conversations.get', { conversationId: id });
    if (!r.ok) throw new Error(`conversation ${id}: ${r.error.message}`);
    await saveConversations(db, [r.value]);
  }
  return db;
}

export const startSender = (db: InboxDb, bridge: Bridge, notices: string[] = [], backoff: BackoffPolicy = fastBackoff, now?: () => number) => {
  const sender = new OutboxSender({ db, bridge, notify: (t) => notices.push(t), backoff, ...(now ? { now } : {}) });
  void sender.start();
  return sender;
};

export const actionContext = (db: InboxDb, demo: DemoBridge): ActionContext => ({ db, me: { id: demo.session.user.id, name: demo.session.user.name } });

/** The conversation as the service has it now. */
export async function serviceConversation(demo: DemoBridge, id: number): Promise<Conversation> {
  const r = await demo.bridge.call('conversations.get', { conversationId: id });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Display ids of the demo agent's conversations matching a SQL condition on `c`. */
export function agentConversations(svc: DemoService, where: string, limit: number): number[] {
  return (
    svc.db
      .prepare(
        `SELECT c.display_id AS id FROM conversations c WHERE c.account_id = ? AND c.inbox_id IN (SELECT inbox_id FROM inbox_members WHERE user_id = (SELECT id FROM users WHERE email = 'sam@acme.example')) AND ${where} ORDER BY c.id LIMIT ?`,
      )
      .all(svc.creds.accountId, limit) as { id: number }[]
  ).map((r) => r.id);
}

/** Service messages of a conversation carrying this content. */
export function serviceMessagesWith(svc: DemoService, displayId: number, content: string): { id: number; content_attributes: string }[] {
  return svc.db
    .prepare('SELECT m.id, m.content_attributes FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.account_id = ? AND c.display_id = ? AND m.content = ?')
    .all(svc.creds.accountId, displayId, content) as { id: number; content_attributes: string }[];
}
