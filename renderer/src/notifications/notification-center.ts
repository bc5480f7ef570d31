// The session's notifications at run time: it reads what the cache knows around each live event,
// asks the pure rules (classify.ts, decide.ts) what to show, and does it: OS or browser
// notifications (raise.ts), in-app toasts (toasts.ts) and the sound (sound.ts). Its memory (the
// coalescing windows, the cap, reminders, summaries held back) lives here, one per session; the
// agent's settings live in the session's cache, read for each decision (another window of the
// same session may have changed them). The clock ticks once a second while the inbox runs.
import type { LiveEvent } from '../../../shared/api/live-events';
import type { Message } from '../../../shared/api/records';
import { messageTypes } from '../../../shared/api/record-values';
import type { CachedConversation, InboxDb } from '../db/schema';
import type { Candidate, EventFacts } from './classify';
import { classify } from './classify';
import type { Attention, Effect, NotifyInput, NotifyState } from './decide';
import { decide, initialNotifyState } from './decide';
import { createHistoryFacts, historyFacts } from './history-facts';
import type { NotifySettings } from './settings';
import { readSettings } from './settings';

export const SETTINGS_KEY = 'notifications';
const TICK_MS = 1_000;
/** A team change of the agent's own this recent is not news to them. */
const OWN_CHANGE_MS = 120_000;

export interface NotificationCenterDeps {
  db: InboxDb;
  me: { id: number; name: string };
  attention(): Attention;
  /** Shows an OS (or browser) notification, or a toast; plays the sound; closes a notification. */
  show(effect: Extract<Effect, { kind: 'show' }>): void;
  sound(settings: NotifySettings['sound']): void;
  close(tag: string): void;
  now?: () => number;
  /** Defaults for a session that has no settings of its own yet (the app-wide switch from before per-session settings). */
  defaults?: () => Partial<NotifySettings>;
}

export function createNotificationCenter(deps: NotificationCenterDeps) {
  const { db, me } = deps;
  const now = deps.now ?? Date.now;
  let state: NotifyState = initialNotifyState();
  let queue: Promise<void> = Promise.resolve();
  // While started: what each conversation's history said, kept between its messages.
  let histories: ReturnType<typeof createHistoryFacts> | undefined;

  /** The stored settings over the defaults (a damaged field falls back alone). */
  const read = (stored: unknown): NotifySettings => readSettings(stored ?? deps.defaults?.());
  const settings = async (): Promise<NotifySettings> => read((await db.settings.get(SETTINGS_KEY))?.value);

  /** Decisions one at a time, in order: each sees the state the one before left. */
  function run(input: () => Promise<NotifyInput | undefined>): Promise<void> {
    queue = queue
      .then(async () => {
        const made = await input();
        if (!made) return;
        const s = await settings();
        const decision = decide(made, s, state, now(), deps.attention());
        state = decision.state;
        for (const effect of decision.effects) {
          if (effect.kind === 'show') deps.show(effect);
          else if (effect.kind === 'sound') deps.sound(s.sound);
          else deps.close(effect.tag);
        }
      })
      .catch((err: unknown) => console.error('could not decide on a notification', err));
    return queue;
  }

  async function factsFor(conversationId: number, before: CachedConversation | undefined): Promise<EventFacts> {
    const inboxIds = (await db.inboxes.toCollection().primaryKeys()) as number[];
    const record = (await db.conversationRecords.get(conversationId))?.record;
    const subject = record?.additional_attributes?.mail_subject;
    const inboxId = before?.inboxId ?? record?.inbox_id;
    const inbox = inboxId === undefined ? undefined : await db.inboxes.get(inboxId);
    // Who resolved it matters only to a conversation that was resolved (classify's resolvedReply).
    const resolver = before?.status === 'resolved';
    const history = await (histories ? histories.facts(conversationId, resolver) : historyFacts(db, conversationId, me, resolver));
    const ownTeamChange = (await db.outbox.where('conversationId').equals(conversationId).filter((e) => e.kind === 'team' && now() - e.createdAt < OWN_CHANGE_MS).count()) > 0;
    return {
      meId: me.id,
      ...(inboxIds.length ? { myInboxIds: new Set(inboxIds) } : {}),
      ...(before ? { before: { assigneeId: before.assigneeId, teamId: before.teamId, status: before.status, contactName: before.contactName } } : {}),
      ...(typeof subject === 'string' && subject.trim() ? { where: subject.trim() } : inbox?.name ? { where: inbox.name } : {}),
      participating: history.participating,
      resolvedByMe: history.lastResolvedBy === me.name,
      ownTeamChange,
    };
  }

  const conversationOf = (event: LiveEvent): number | undefined => {
    if ('message' in event) return event.message.conversation_id;
    if (event.type === 'notification.created') return event.notification.conversationId ?? undefined;
    return 'conversation' in event ? event.conversation.id : undefined;
  };

  const tick = () => run(async () => ({ kind: 'tick' }));

  return {
    /** A live event, with the conversation as the cache held it before the event was applied. */
    consider(event: LiveEvent, before: CachedConversation | undefined): Promise<void> {
      return run(async () => {
        const id = conversationOf(event);
        if (id === undefined) return undefined;
        // Someone answered the contact: no reminder for it.
        if (event.type === 'message.created' && event.message.message_type === messageTypes.outgoing && !event.message.private) return { kind: 'answered', conversationId: id };
        const candidate = classify(event, await settings(), await factsFor(id, before));
        return candidate ? { kind: 'candidate', candidate } : undefined;
      });
    },
    /** Messages a catch-up brought in after a gap: at most one summary for all of them. */
    missed(messages: readonly Message[]): Promise<void> {
      return run(async () => {
        const s = await settings();
        const candidates: Candidate[] = [];
        for (const m of messages) {
          if (m.message_type !== messageTypes.incoming || m.private) continue;
          const row = await db.conversations.get(m.conversation_id);
          const event: LiveEvent = { type: 'message.created', accountId: 0, message: m, conversation: { assignee_id: row && row.assigneeId !== 0 ? row.assigneeId : null } };
          const c = classify(event, s, await factsFor(m.conversation_id, row));
          if (c) candidates.push(c);
        }
        return candidates.length ? { kind: 'missed', candidates } : undefined;
      });
    },
    /** The agent opened this conversation. */
    opened: (conversationId: number) => run(async () => ({ kind: 'opened', conversationId })),
    tick,
    settings,
    read,
    async update(change: (s: NotifySettings) => NotifySettings): Promise<NotifySettings> {
      const next = change(await settings());
      await db.settings.put({ key: SETTINGS_KEY, value: next });
      return next;
    },
    /** Ticks while running (summaries after a pause, reminders) and keeps what histories said; returns the stop. */
    start(): () => void {
      const timer = setInterval(() => void tick(), TICK_MS);
      const kept = (histories = createHistoryFacts(db, me));
      return () => {
        clearInterval(timer);
        kept.stop();
        if (histories === kept) histories = undefined;
      };
    },
  };
}
export type NotificationCenter = ReturnType<typeof createNotificationCenter>;
