// Local hits first (instant, and available offline), then what only the service found. A hit both
// found keeps its local place; the service's own ranking orders the rest.
import type { SearchResults } from '../../../shared/api/search';
import type { HitKind } from './documents';
import type { LocalHit } from './shown-hit';
import { oneLine, snippetAround } from './snippet';

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

/** The words of a query, as the snippet looks for them. */
export const queryWords = (q: string) => q.split(/\s+/).filter(Boolean);

export function fromLocal(h: LocalHit): SearchHit {
  return {
    key: h.key,
    kind: h.kind,
    conversationId: h.conversationId,
    ...(h.kind === 'contact' ? { contactId: h.refId } : {}),
    ...(h.kind === 'message' ? { messageId: h.refId } : {}),
    title: h.title || (h.kind === 'message' ? `Message in #${h.conversationId}` : `#${h.refId}`),
    snippet: h.snippet,
    at: h.at,
    source: 'local',
  };
}

/**
 * Local hits as results. A message found only by its sender's name is not a result of its own (a
 * contact's name would list every message they wrote): such messages group into one result for
 * their contact, in the place of the first of them, unless the contact is a result already.
 */
export function localResults(hits: readonly LocalHit[]): SearchHit[] {
  const contacts = new Set(hits.filter((h) => h.kind === 'contact').map((h) => h.refId));
  const out: SearchHit[] = [];
  for (const h of hits) {
    if (!h.nameOnly) {
      out.push(fromLocal(h));
      continue;
    }
    const contactId = h.senderContactId;
    if (!contactId || contacts.has(contactId)) continue;
    contacts.add(contactId);
    out.push({ key: `p:${contactId}`, kind: 'contact', conversationId: h.conversationId, contactId, title: h.title || `Contact ${contactId}`, snippet: 'Contact', at: h.at, source: 'local' });
  }
  return out;
}

/** The service's results as hits, in its order: conversations, then messages, then contacts. */
export function fromService(r: SearchResults, query = ''): SearchHit[] {
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
      snippet: snippetAround(m.content ?? '', queryWords(query)),
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
