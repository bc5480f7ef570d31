// What the local search indexes, built from cache rows: a conversation (contact name and email,
// number, preview, labels), a message (its text and sender), a contact (name, email, phone,
// identifier, company).
import type { Contact } from '../../../shared/api/contacts';
import { plainText } from '../model/normalize';
import type { CachedConversation, CachedMessage } from '../db/schema';

export type HitKind = 'conversation' | 'message' | 'contact';

export interface SearchDoc {
  /** `c:<display id>`, `m:<message id>` or `p:<contact id>`: unique across kinds. */
  key: string;
  kind: HitKind;
  refId: number;
  conversationId: number;
  title: string;
  /** What the index matches on. */
  text: string;
  /** What a result shows (stored, not indexed): a message's whole text, cut around the match when shown. */
  snippet: string;
  at: number;
  /** A message written by a contact: who (a hit on their name alone groups into one contact result). */
  senderContactId?: number;
}

/** Long messages are cut: the index serves finding, not reading. */
const MAX_TEXT = 2_000;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function conversationDoc(c: CachedConversation): SearchDoc {
  return {
    key: `c:${c.id}`,
    kind: 'conversation',
    refId: c.id,
    conversationId: c.id,
    title: c.contactName,
    text: [`#${c.id}`, c.contactEmail, c.preview, c.labels.join(' ')].join(' ').slice(0, MAX_TEXT),
    snippet: c.preview,
    at: c.lastActivityAt,
  };
}

/** Activity messages ("Assigned to…") are not worth finding; notes and replies are. */
export function messageDoc(m: CachedMessage): SearchDoc | undefined {
  if (m.message_type === 2 || !m.content) return undefined;
  return {
    key: `m:${m.id}`,
    kind: 'message',
    refId: m.id,
    conversationId: m.conversation_id,
    title: m.sender?.available_name || m.sender?.name || '',
    text: m.content.slice(0, MAX_TEXT),
    snippet: plainText(m.content.slice(0, MAX_TEXT)),
    at: m.created_at,
    ...(m.message_type === 0 && m.sender?.id && m.sender.type !== 'user' ? { senderContactId: m.sender.id } : {}),
  };
}

export function contactDoc(c: Contact): SearchDoc {
  const extra = c.additional_attributes;
  const details = [c.email, c.phone_number, c.identifier, str(extra.company_name), str(extra.city)].filter(Boolean).join(' ');
  return {
    key: `p:${c.id}`,
    kind: 'contact',
    refId: c.id,
    conversationId: 0,
    title: c.name ?? '',
    text: details,
    snippet: details,
    at: c.last_activity_at ?? 0,
  };
}
