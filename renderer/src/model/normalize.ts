// API records → cache rows. Indexed fields are pulled out of the record so list views query the
// cache directly (status, assignee, inbox, team, labels, contact, last activity, sort keys).
import type { Conversation, Priority } from '../../../shared/api/records';
import type { CachedConversation, ConversationRecord } from './rows';

const PRIORITY_RANK: Record<Priority, number> = { low: 0, medium: 1, high: 2, urgent: 3 };

/** The service sorts priority urgent > high > medium > low, and conversations without one last. */
export const priorityRank = (p: Priority | null): number => (p ? PRIORITY_RANK[p] : -1);

/**
 * Markdown reduced to its words for a one-line preview: links keep their text, marks go.
 * Underscores stay: CommonMark does not emphasise inside words (snake_case ids), so neither do we.
 */
export function plainText(markdown: string): string {
  return markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|\*|`|~~)(?=\S)([^*`~]*?\S)\1/g, '$2')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function previewOf(c: Conversation): string {
  const last = c.last_non_activity_message ?? c.messages[c.messages.length - 1];
  if (!last) return '';
  const text = plainText(last.content ?? '');
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
    contactId: c.meta.sender?.id ?? 0,
    labels: c.labels,
    priority: c.priority,
    priorityRank: priorityRank(c.priority),
    lastActivityAt: c.last_activity_at || c.timestamp,
    createdAt: c.created_at,
    waitingSince: c.waiting_since,
    unreadCount: c.unread_count,
    contactName: c.meta.sender?.name || 'Unknown contact',
    contactEmail: c.meta.sender?.email ?? '',
    contactPicture: Boolean(c.meta.sender?.thumbnail),
    assigneeName: c.meta.assignee?.available_name || c.meta.assignee?.name || '',
    preview: previewOf(c),
  };
}

export const toConversationRecord = (c: Conversation): ConversationRecord => ({ id: c.id, record: c });
