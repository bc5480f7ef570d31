// The one decision: from what happened (a candidate notification, a catch-up's missed ones, a
// reply, the agent opening a conversation, or the clock ticking) + the agent's settings + the
// clock + where the agent's attention is, to what to show, and the state to remember. Pure, so
// every rule is tested on a table of inputs:
//
// - never missed: with the window focused, a conversation other than the open one still shows,
//   as an in-app toast with a sound (both settable); unfocused, an OS notification and the sound;
// - never a flood: a conversation's next messages within `coalesceSeconds` of its notification
//   update that one in place (a count, no new sound); at most `perMinute` new ones a minute, the
//   rest in one summary when the minute allows; anything that happened more than a minute before
//   it reached us (after sleep, a long offline spell, a catch-up) goes into one summary
//   ("14 new messages in 6 conversations") once the stream has settled;
// - do not disturb (a weekly schedule or a pause): nothing shows or sounds; when it ends, one
//   summary of what came meanwhile;
// - a reminder when a notified conversation is still unanswered after `reminderMinutes`.
import type { Candidate } from './classify';
import { isQuiet, writtenWhileQuiet } from './quiet-time';
import type { NotifySettings } from './settings';

export type NotifyInput =
  | { kind: 'candidate'; candidate: Candidate }
  /** A catch-up after a gap found these (they were never live). */
  | { kind: 'missed'; candidates: readonly Candidate[] }
  /** Someone answered the contact (a reminder is no longer due). */
  | { kind: 'answered'; conversationId: number }
  /** The agent opened the conversation: its notification goes, and the next message alerts anew. */
  | { kind: 'opened'; conversationId: number }
  | { kind: 'tick' };

export interface Attention {
  /** The window has the agent's attention (focused and visible). */
  focused: boolean;
  openConversationId: number | undefined;
}

export type Effect =
  /** `tag`: a later show with the same tag replaces this one in place. `silent`: an update, no sound of its own. */
  | { kind: 'show'; via: 'os' | 'toast'; tag: string; title: string; body: string; conversationId?: number; silent: boolean }
  | { kind: 'sound' }
  | { kind: 'close'; tag: string };

interface Tally {
  messages: number;
  conversations: number[];
}

export interface NotifyState {
  /** A conversation's notification: when it first alerted (the coalescing window), how many it stands for. */
  shown: Record<number, { firstAt: number; count: number; via: 'os' | 'toast'; title: string }>;
  /** When the new notifications of the last minute were raised (the cap). */
  raisedAt: number[];
  /** Held back by the cap. */
  held: Tally;
  /**
   * Written while do not disturb was on (the current spell, or the last one), and when its summary
   * was shown. A message of the spell decided only after it ended (a slow event, a conversation
   * read first, a renderer busy through a short pause) joins that summary, updated in place.
   */
  quiet: Tally & { summarizedAt?: number };
  /** Happened long before it reached us (missed). */
  late: Tally & { lastAt: number };
  reminders: Record<number, { due: number; title: string; since: number }>;
  /** Keys already decided: a replayed event never alerts twice. */
  seen: string[];
}

export const LATE_MS = 60_000;
/** Reasons that are news of their own (never folded into a burst of messages). */
const NEWS: ReadonlySet<Candidate['reason']> = new Set(['assignedToMe', 'assignedToMyTeams', 'mentions']);
/** A stream of missed ones is summed up once nothing more came for this long. */
export const SETTLE_MS = 3_000;
const QUIET_TITLE = 'While notifications were paused';
const QUIET_TAG = 'summary-quiet';
const MINUTE = 60_000;
const SEEN_MAX = 500;

export const initialNotifyState = (): NotifyState => ({
  shown: {},
  raisedAt: [],
  held: { messages: 0, conversations: [] },
  quiet: { messages: 0, conversations: [] },
  late: { messages: 0, conversations: [], lastAt: 0 },
  reminders: {},
  seen: [],
});

export const tagOf = (conversationId: number) => `conversation-${conversationId}`;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
export const summaryText = (t: Tally) => `${plural(t.messages, 'new message', 'new messages')} in ${plural(t.conversations.length, 'conversation', 'conversations')}`;
const add = (t: Tally, conversationId: number): Tally => ({ messages: t.messages + 1, conversations: t.conversations.includes(conversationId) ? t.conversations : [...t.conversations, conversationId] });
const empty: Tally = { messages: 0, conversations: [] };

export interface Decision {
  effects: Effect[];
  state: NotifyState;
}

export function decide(input: NotifyInput, settings: NotifySettings, state: NotifyState, now: number, attention: Attention): Decision {
  const effects: Effect[] = [];
  let s: NotifyState = { ...state, raisedAt: state.raisedAt.filter((t) => now - t < MINUTE) };
  const quietNow = isQuiet(settings.dnd, now);
  // A new spell: its own summary (the last one's was shown).
  if (quietNow && s.quiet.summarizedAt !== undefined) s = { ...s, quiet: { ...empty } };
  const via: 'os' | 'toast' = attention.focused ? 'toast' : 'os';
  /** Sound and show for a new alert, as the agent's attention allows. */
  const alert = (show: Omit<Extract<Effect, { kind: 'show' }>, 'kind' | 'via' | 'silent'>): boolean => {
    const toast = !attention.focused || settings.focused.toast;
    const sound = settings.sound.name !== 'none' && (!attention.focused || settings.focused.sound);
    if (!toast && !sound) return false;
    if (toast) effects.push({ kind: 'show', via, silent: false, ...show });
    if (sound) effects.push({ kind: 'sound' });
    s = { ...s, raisedAt: [...s.raisedAt, now] };
    return true;
  };
  /** A summary of one conversation opens it. */
  const only = (t: Tally) => (t.conversations.length === 1 ? { conversationId: t.conversations[0]! } : {});
  const summary = (tag: string, title: string, t: Tally) => alert({ tag, title, body: summaryText(t), ...only(t) });

  switch (input.kind) {
    case 'candidate': {
      const c = input.candidate;
      if (!settings.enabled || s.seen.includes(c.key)) break;
      s = { ...s, seen: [...s.seen, c.key].slice(-SEEN_MAX) };
      if (settings.muted.includes(c.conversationId) && !c.breaksMute) break;
      if (!quietNow && writtenWhileQuiet(settings.dnd, c.at)) {
        // Written while notifications were paused, decided after: that spell's summary, now or
        // updated in place (one written after the last summary was shown belongs to a later spell).
        const last = s.quiet.summarizedAt;
        const shown = last !== undefined && c.at <= last;
        const tally = add(shown || last === undefined ? s.quiet : empty, c.conversationId);
        if (shown) {
          effects.push({ kind: 'show', via, tag: QUIET_TAG, title: QUIET_TITLE, body: summaryText(tally), silent: true, ...only(tally) });
          s = { ...s, quiet: { ...tally, summarizedAt: last } };
        } else {
          s = { ...s, quiet: { ...tally, summarizedAt: now } };
          summary(QUIET_TAG, QUIET_TITLE, tally);
        }
        break;
      }
      // On screen in front of the agent: they see it happen.
      if (attention.focused && attention.openConversationId === c.conversationId) break;
      if (quietNow) {
        s = { ...s, quiet: add(s.quiet, c.conversationId) };
        break;
      }
      if (now - c.at > LATE_MS) {
        s = { ...s, late: { ...add(s.late, c.conversationId), lastAt: now } };
        break;
      }
      const prior = s.shown[c.conversationId];
      // Only messages fold into a conversation's notification; an assignment or a mention is news of its own.
      const isMessage = !NEWS.has(c.reason);
      if (prior && isMessage && now - prior.firstAt < settings.coalesceSeconds * 1_000) {
        const count = prior.count + 1;
        effects.push({ kind: 'show', via: prior.via, tag: tagOf(c.conversationId), title: prior.title, body: `${count} new · ${c.body}`, conversationId: c.conversationId, silent: true });
        s = { ...s, shown: { ...s.shown, [c.conversationId]: { ...prior, count } } };
        break;
      }
      if (s.raisedAt.length >= settings.perMinute) {
        s = { ...s, held: add(s.held, c.conversationId) };
        break;
      }
      if (alert({ tag: tagOf(c.conversationId), title: c.title, body: c.body, conversationId: c.conversationId })) {
        s = { ...s, shown: { ...s.shown, [c.conversationId]: { firstAt: now, count: isMessage ? 1 : 0, via, title: c.title } } };
      }
      if (c.awaitsReply && settings.reminderMinutes > 0 && !s.reminders[c.conversationId]) {
        s = { ...s, reminders: { ...s.reminders, [c.conversationId]: { due: now + settings.reminderMinutes * MINUTE, title: c.title, since: c.at } } };
      }
      break;
    }
    case 'missed': {
      if (!settings.enabled) break;
      let late = s.late;
      let quiet = s.quiet;
      const seen = new Set(s.seen);
      for (const c of input.candidates) {
        if (seen.has(c.key) || (settings.muted.includes(c.conversationId) && !c.breaksMute)) continue;
        seen.add(c.key);
        if (quietNow) quiet = add(quiet, c.conversationId);
        else late = { ...add(late, c.conversationId), lastAt: now };
      }
      s = { ...s, late, quiet, seen: [...seen].slice(-SEEN_MAX) };
      break;
    }
    case 'answered': {
      const { [input.conversationId]: _gone, ...rest } = s.reminders;
      s = { ...s, reminders: rest };
      break;
    }
    case 'opened': {
      if (s.shown[input.conversationId]) effects.push({ kind: 'close', tag: tagOf(input.conversationId) });
      const { [input.conversationId]: _gone, ...rest } = s.shown;
      s = { ...s, shown: rest };
      break;
    }
    case 'tick': {
      if (!quietNow && s.quiet.messages > 0 && s.quiet.summarizedAt === undefined) {
        s = { ...s, quiet: { ...s.quiet, summarizedAt: now } };
        if (settings.enabled) summary(QUIET_TAG, QUIET_TITLE, s.quiet);
      }
      if (!quietNow && s.late.messages > 0 && now - s.late.lastAt >= SETTLE_MS) {
        const t = s.late;
        s = { ...s, late: { ...empty, lastAt: 0 } };
        if (settings.enabled) summary('summary-missed', 'While you were away', t);
      }
      if (!quietNow && s.held.messages > 0 && s.raisedAt.length < settings.perMinute) {
        const t = s.held;
        s = { ...s, held: empty };
        if (settings.enabled) summary('summary-more', 'More new messages', t);
      }
      for (const [key, r] of Object.entries(s.reminders)) {
        if (r.due > now || quietNow || !settings.enabled || s.raisedAt.length >= settings.perMinute) continue;
        const id = Number(key);
        const { [id]: _done, ...rest } = s.reminders;
        s = { ...s, reminders: rest };
        alert({ tag: tagOf(id), title: `Still unanswered: ${r.title}`, body: `Waiting for ${Math.max(1, Math.round((now - r.since) / MINUTE))} min`, conversationId: id });
      }
      // A conversation's window has passed: its next message alerts again.
      const shown = Object.fromEntries(Object.entries(s.shown).filter(([, v]) => now - v.firstAt < settings.coalesceSeconds * 1_000));
      s = { ...s, shown };
      break;
    }
  }
  return { effects, state: s };
}
