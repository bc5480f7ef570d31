// Whether a live event deserves an OS notification, and its words. Pure, so every rule is tested
// on its own: new incoming messages from contacts (never the agent's own, a private note or an
// activity line) in conversations assigned to the agent or to nobody, in the agent's inboxes;
// being assigned or mentioned; and only while the window does not have the agent's attention and
// the agent has not turned notifications off.
import type { LiveEvent } from '../../../shared/api/live-events';
import { messageTypes } from '../../../shared/api/records';
import { notificationText } from '../../../shared/text/notification-text';
import { plainText } from '../model/normalize';

export interface NotifyFacts {
  meId: number;
  /** The window is focused and visible: the agent sees the change happen. */
  focused: boolean;
  enabled: boolean;
  /** The agent's inboxes, when known; events of other inboxes do not notify. */
  inboxIds?: ReadonlySet<number>;
  /** The contact's name from the cache, when the event does not carry it. */
  contactName?: string;
}

export interface NotificationContent {
  title: string;
  body: string;
  conversationId: number;
  /** One notification per message or service notification, however often the event comes. */
  key: string;
}

/** Service notifications worth interrupting for; message notifications come from the message itself. */
const NOTIFYING_TYPES = new Set(['conversation_assignment', 'conversation_mention']);
export const TITLE_MAX = 80;
export const BODY_MAX = 140;

/** One line of plain text, cut to `max` (main cleans it again before the OS sees it). */
const clip = notificationText;

export function notificationFor(event: LiveEvent, facts: NotifyFacts): NotificationContent | undefined {
  if (!facts.enabled || facts.focused) return undefined;
  if (event.type === 'message.created') {
    const m = event.message;
    if (m.message_type !== messageTypes.incoming || m.private) return undefined;
    // Incoming messages are the contact's; a user sender would be an agent writing as the contact (API inboxes).
    if (m.sender?.type === 'user' && m.sender.id === facts.meId) return undefined;
    const assignee = event.conversation.assignee_id;
    if (assignee !== null && assignee !== facts.meId) return undefined;
    if (facts.inboxIds && m.inbox_id !== undefined && !facts.inboxIds.has(m.inbox_id)) return undefined;
    const text = plainText(m.content ?? '') || (m.attachments?.length ? 'Sent an attachment' : 'New message');
    return {
      title: clip(m.sender?.name || facts.contactName || 'New message', TITLE_MAX),
      body: clip(text, BODY_MAX),
      conversationId: m.conversation_id,
      key: `message:${m.id}`,
    };
  }
  if (event.type === 'notification.created') {
    const n = event.notification;
    if (!NOTIFYING_TYPES.has(n.notificationType) || n.conversationId === null) return undefined;
    const fallback = n.notificationType === 'conversation_mention' ? 'You were mentioned' : 'A conversation was assigned to you';
    return {
      title: clip(n.title || fallback, TITLE_MAX),
      body: clip(n.body, BODY_MAX),
      conversationId: n.conversationId,
      key: `notification:${n.id}`,
    };
  }
  return undefined;
}
