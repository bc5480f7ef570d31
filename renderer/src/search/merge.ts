// Local hits first (instant, and available offline), then what only the service found. A hit both
// found keeps its local place; the service's own ranking orders the rest.
import type { SearchResults } from '../../../shared/api/search';
import type { HitKind } from './documents';
import type { LocalHit } from './local-index';

export interface SearchHit {
  key: string;
  kind: HitKind;
  /** The conversation to open (0 for a contact hit). */
  conversationId: number;
  contactId?: number;
  /** For a message hit: the message to take the agent to. */
  messageId?: number;
  title: string;
  snippet: string;
  at: number;
  source: 'local' | 'service' | 'both';
}

const oneLine = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim().slice(0, 200);

export function fromLocal(h: LocalHit): SearchHit {
  return {
    key: h.key,
    kind: h.kind,
    conversationId: h.conversationId,
    ...(h.kind === 'contact' ? { contactId: h.refId } : {}),
    ...(h.kind === 'message' ? { messageId: h.refId } : {}),
    title: h.title || (h.kind === 'message' ? `Message in #${h.conversationId}` : `#${h.refId}`),
    snippet: oneLine(h.snippet),
    at: h.at,
    source: 'local',
  };
}

/** The service's results as hits, in its order: conversations, then messages, then contacts. */
export function fromService(r: SearchResults): SearchHit[] {
  const { conversations, messages, contacts } = r.payload;
  return [
    ...conversations.map((c): SearchHit => ({
      key: `c:${c.id}`,
      kind: 'conversation',
      conversationId: c.id,
      title: c.contact?.name || `Conversation #${c.id}`,
      snippet: oneLine(c.message?.content) || `#${c.id}${c.inbox?.name ? ` · ${c.inbox.name}` : ''}`,
      at: c.created_at,
      source: 'service',
    })),
    ...messages.map((m): SearchHit => ({
      key: `m:${m.id}`,
      kind: 'message',
      conversationId: m.conversation_id,
      messageId: m.id,
      title: m.sender?.available_name || m.sender?.name || `Message in #${m.conversation_id}`,
      snippet: oneLine(m.content),
      at: m.created_at,
      source: 'service',
    })),
    ...contacts.map((c): SearchHit => ({
      key: `p:${c.id}`,
      kind: 'contact',
      conversationId: 0,
      contactId: c.id,
      title: c.name || c.email || `Contact ${c.id}`,
      snippet: oneLine([c.email, c.phone_number, c.identifier].filter(Boolean).join(' · ')),
      at: c.last_activity_at ?? 0,
      source: 'service',
    })),
  ];
}

export function mergeHits(local: readonly SearchHit[], service: readonly SearchHit[] | undefined): SearchHit[] {
  if (!service) return [...local];
  const fromService = new Set(service.map((h) => h.key));
  const seen = new Set(local.map((h) => h.key));
  return [
    ...local.map((h) => (fromService.has(h.key) ? { ...h, source: 'both' as const } : h)),
    ...service.filter((h) => !seen.has(h.key)),
  ];
}
