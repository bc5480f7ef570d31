// Records for renderer tests, shaped as main hands them over (parsed by shared/api schemas).
import type { Conversation, Message } from '../../shared/api/records';
import { conversationSchema, messageSchema } from '../../shared/api/records';

export const msg = (id: number, conversationId = 1, extra: Partial<Message> = {}): Message =>
  messageSchema.parse({ id, content: `m${id}`, conversation_id: conversationId, message_type: 0, created_at: id, ...extra });

export const range = (from: number, to: number, conversationId = 1) => Array.from({ length: to - from + 1 }, (_, i) => msg(from + i, conversationId));

export interface ConvOpts {
  status?: Conversation['status'];
  assignee?: number | null;
  team?: number | null;
  inbox?: number;
  labels?: string[];
  priority?: Conversation['priority'];
  lastActivityAt?: number;
  createdAt?: number;
  waitingSince?: number;
  contact?: { id: number; name: string };
  unread?: number;
  preview?: string;
}

export function conv(id: number, o: ConvOpts = {}): Conversation {
  return conversationSchema.parse({
    id,
    inbox_id: o.inbox ?? 1,
    status: o.status ?? 'open',
    priority: o.priority ?? null,
    labels: o.labels ?? [],
    meta: {
      sender: o.contact ?? { id: 1000 + id, name: `Contact ${id}` },
      ...(o.assignee ? { assignee: { id: o.assignee, name: `Agent ${o.assignee}` } } : {}),
      ...(o.team ? { team: { id: o.team, name: `Team ${o.team}` } } : {}),
    },
    messages: [],
    last_non_activity_message: o.preview ? { id: id * 10, content: o.preview, conversation_id: id, message_type: 0, created_at: 1 } : null,
    unread_count: o.unread ?? 0,
    last_activity_at: o.lastActivityAt ?? 1_000 + id,
    timestamp: o.lastActivityAt ?? 1_000 + id,
    created_at: o.createdAt ?? id,
    waiting_since: o.waitingSince ?? 0,
  });
}

let n = 0;
export const uniqueDbName = (prefix = 't') => `${prefix}-${Date.now()}-${n++}`;
