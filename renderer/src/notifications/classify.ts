// Which rule, if any, makes a live event worth telling the agent about, and what to say: who,
// which conversation (its subject, else its inbox), and an excerpt. Pure: the facts the cache
// knows about the conversation come in as arguments. Everything here is untrusted text from the
// network; it is reduced to one plain line (`notificationText`) and main cleans it again.
import type { LiveEvent } from '../../../shared/api/live-events';
import { messageTypes } from '../../../shared/api/record-values';
import { notificationText } from '../../../shared/text/notification-text';
import { plainText } from '../model/normalize';
import type { NotifySettings, RuleName } from './settings';
import { ruleOn } from './settings';

export const TITLE_MAX = 80;
export const BODY_MAX = 140;

/** What the cache knows around an event (read before the event was applied). */
export interface EventFacts {
  meId: number;
  /** The agent's inboxes, when known; events of other inboxes do not notify (except watched conversations). */
  myInboxIds?: ReadonlySet<number>;
  /** The conversation before this event, when cached. */
  before?: { assigneeId: number; teamId: number; status: string; contactName: string };
  /** The conversation's subject (an email's) or its inbox's name, for the title. */
  where?: string;
  /** The agent wrote in this conversation before (a reply or a note). */
  participating?: boolean;
  /** The agent was the last to resolve it. */
  resolvedByMe?: boolean;
  /** The agent changed this conversation's team themselves a moment ago (no need to tell them). */
  ownTeamChange?: boolean;
}

export type Reason = RuleName | 'watched';

export interface Candidate {
  reason: Reason;
  conversationId: number;
  /** One notification per message or service notification, however often the event comes. */
  key: string;
  title: string;
  body: string;
  /** When it happened (epoch ms): one long past was missed, and goes into a summary. */
  at: number;
  /** A contact waits for an answer: a reminder may follow. */
  awaitsReply: boolean;
  /** Notifies even in a muted conversation (a mention of the agent). */
  breaksMute: boolean;
}

const clip = notificationText;
const mentionOf = (meId: number) => new RegExp(`\\(mention://user/${meId}/`);
/** A mention link reads as its name: `[@Sam](mention://user/2/Sam)` → `@Sam`. */
const readable = (text: string) => plainText(text.replace(/\[(@[^\]]{0,100})\]\(mention:\/\/[^)]{0,200}\)/g, '$1'));

function candidate(reason: Reason, conversationId: number, key: string, title: string, body: string, at: number, extra: Partial<Pick<Candidate, 'awaitsReply' | 'breaksMute'>> = {}): Candidate {
  return { reason, conversationId, key, title: clip(title, TITLE_MAX), body: clip(body, BODY_MAX), at, awaitsReply: extra.awaitsReply ?? false, breaksMute: extra.breaksMute ?? false };
}

/** The first rule (most specific first) the agent has on that this message meets. */
function messageReason(s: NotifySettings, facts: EventFacts, conversation: { assigneeId: number; teamId: number; inboxId: number | undefined }): RuleName | undefined {
  const mineInbox = !facts.myInboxIds || conversation.inboxId === undefined || facts.myInboxIds.has(conversation.inboxId);
  const checks: [RuleName, boolean][] = [
    ['mine', conversation.assigneeId === facts.meId],
    ['resolvedReply', Boolean(facts.resolvedByMe) && facts.before?.status === 'resolved'],
    ['participating', Boolean(facts.participating)],
    ['teams', conversation.teamId !== 0 && s.teamIds.includes(conversation.teamId)],
    ['unassigned', conversation.assigneeId === 0 && mineInbox],
    ['inboxes', conversation.inboxId !== undefined && s.inboxIds.includes(conversation.inboxId)],
  ];
  return checks.find(([rule, applies]) => applies && ruleOn(s, rule))?.[0];
}

export function classify(event: LiveEvent, s: NotifySettings, facts: EventFacts): Candidate | undefined {
  if (event.type === 'message.created') {
    const m = event.message;
    const id = m.conversation_id;
    const at = m.created_at * 1_000;
    const byMe = m.sender?.type === 'user' && m.sender.id === facts.meId;
    if (byMe) return undefined;
    const who = m.sender?.available_name || m.sender?.name || (m.message_type === messageTypes.incoming ? facts.before?.contactName || 'The contact' : 'Someone');
    const text = readable(m.content ?? '') || (m.attachments?.length ? 'Sent an attachment' : 'New message');
    const where = facts.where ? ` · ${facts.where}` : '';
    // A private note naming the agent: who mentioned them, and the note.
    if (m.private && mentionOf(facts.meId).test(m.content ?? '') && ruleOn(s, 'mentions')) {
      return candidate('mentions', id, `mention:${m.id}`, `${who} mentioned you in #${id}`, `“${text}”`, at, { breaksMute: true });
    }
    const watched = s.watched.includes(id);
    if (m.message_type === messageTypes.incoming && !m.private) {
      const conversation = { assigneeId: event.conversation.assignee_id ?? 0, teamId: facts.before?.teamId ?? 0, inboxId: m.inbox_id };
      const reason = messageReason(s, facts, conversation) ?? (watched ? 'watched' : undefined);
      if (!reason) return undefined;
      const title = reason === 'resolvedReply' ? `${who} replied to #${id}, which you resolved` : `${who} (#${id}${where})`;
      return candidate(reason, id, `message:${m.id}`, title, text, at, { awaitsReply: true });
    }
    // Another agent's reply or note, or an activity line: only where the agent asked for any activity.
    if (!watched) return undefined;
    const line = m.message_type === messageTypes.activity ? text : `${who}: ${text}`;
    return candidate('watched', id, `message:${m.id}`, `Activity in #${id}${where}`, line, at);
  }
  if (event.type === 'notification.created') {
    const n = event.notification;
    if (n.conversationId === null) return undefined;
    const id = n.conversationId;
    const at = n.createdAt ? n.createdAt * 1_000 : Date.now();
    if (n.notificationType === 'conversation_assignment' && ruleOn(s, 'assignedToMe')) {
      const title = n.actorName ? `${n.actorName} assigned #${id} to you` : `#${id} was assigned to you`;
      return candidate('assignedToMe', id, `notification:${n.id}`, title, n.body || facts.where || '', at, { awaitsReply: false });
    }
    if (n.notificationType === 'conversation_mention' && ruleOn(s, 'mentions')) {
      // The same mention as the note's own message event, when the notification names it: one key for both.
      const key = n.messageId ? `mention:${n.messageId}` : `notification:${n.id}`;
      const title = n.actorName ? `${n.actorName} mentioned you in #${id}` : `You were mentioned in #${id}`;
      return candidate('mentions', id, key, title, n.quote ? `“${readable(n.quote)}”` : n.body, at, { breaksMute: true });
    }
    return undefined;
  }
  if (event.type === 'team.changed' || event.type === 'conversation.updated' || event.type === 'assignee.changed') {
    const c = event.conversation;
    const team = c.meta.team;
    if (!team || !facts.before || facts.before.teamId === team.id || facts.ownTeamChange) return undefined;
    if (!s.teamIds.includes(team.id) || !ruleOn(s, 'assignedToMyTeams')) return undefined;
    const contact = c.meta.sender?.name || facts.before.contactName;
    return candidate('assignedToMyTeams', c.id, `team:${c.id}:${team.id}:${c.updated_at ?? c.last_activity_at}`, `#${c.id} moved to team ${team.name}`, contact ? `${contact}${facts.where ? ` · ${facts.where}` : ''}` : '', (c.updated_at ?? c.last_activity_at) * 1_000);
  }
  return undefined;
}
