// API records → cache rows. Indexed fields are pulled out of the record so list views query the
// cache directly (status, assignee, inbox, team, labels, last activity).
import type { Conversation } from '../../../shared/api/records';
import type { CachedConversation } from './schema';

export function previewOf(c: Conversation): string {
  const last = c.last_non_activity_message ?? c.messages[c.messages.length - 1];
  if (!last) return '';
  const text = (last.content ?? '').replace(/\s+/g, ' ').trim();
  if (text) return text.slice(0, 160);
  return last.attachments?.length ? `📎 ${last.attachments.length} attachment${last.attachments.length > 1 ? 's' : ''}` : '';
}

export function toCachedConversation(c: Conversation): CachedConversation {
  return {
    id: c.id,
    status: c.status,
    inboxId: c.inbox_id,
    assigneeId: c.meta.assignee?.id ?? 0,
    teamId: c.meta.team?.id ?? 0,
    labels: c.labels,
    priority: c.priority,
    lastActivityAt: c.last_activity_at || c.timestamp,
    createdAt: c.created_at,
    waitingSince: c.waiting_since,
    unreadCount: c.unread_count,
    contactName: c.meta.sender?.name || 'Unknown contact',
    preview: previewOf(c),
    record: c,
  };
}
