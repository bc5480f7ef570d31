// After a message send ended without an answer we can trust (timeout, lost connection, 5xx), the
// message may exist on the service. Sending again blindly would duplicate it (the service does not
// deduplicate), so first we look for it among the messages created after the newest one we held
// before the first attempt (ids only grow).
//
// The reliable marker: the send carried our client id in `content_attributes`, which the service
// stores and returns. A service that drops unknown content attributes gets the fallback: an
// outgoing message from this agent with the same text and privacy, carrying no marker at all
// (a message with another marker is another send of ours, never this one; and once any marker is
// in sight, the service keeps them, so the fallback is off).
import type { Message } from '../../../shared/api/records';
import type { Bridge } from '../../../shared/bridge/contract';
import { CLIENT_MESSAGE_ID_KEY } from '../../../shared/bridge/calls/message-limits';
import { callOrThrow } from '../platform/call';
import type { Intent } from '../model/intent';
import { markerOf } from '../model/intent';

/** The service's `after` page size (spec: Pagination). */
const AFTER_PAGE = 100;
/** A conversation rarely gets this many messages while one send is unanswered; beyond it, give up looking. */
const MAX_PAGES = 20;

export interface SentSearch {
  conversationId: number;
  clientId: string;
  intent: Extract<Intent, { kind: 'message' }>;
  /** Search messages with ids above this one. */
  afterId: number;
}

export type SentMatch = { message: Message; by: 'marker' | 'content' } | undefined;

const sameText = (a: string | null, b: string) => (a ?? '').trim() === b.trim();

/** Finds the message a previous attempt created, or undefined if none did. Throws BridgeFailure if the service cannot be read. */
export async function findSentMessage(bridge: Bridge, search: SentSearch): Promise<SentMatch> {
  let after = search.afterId;
  let fallback: Message | undefined;
  // Any marker in sight proves this service keeps them: then an unmarked look-alike is someone else's.
  let keepsMarkers = false;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { payload } = await callOrThrow(bridge, 'messages.list', { conversationId: search.conversationId, after });
    for (const m of payload) {
      if (m.conversation_id !== search.conversationId) continue;
      if (markerOf(m) === search.clientId) return { message: m, by: 'marker' };
      const unmarked = !(CLIENT_MESSAGE_ID_KEY in (m.content_attributes ?? {}));
      if (!unmarked) keepsMarkers = true;
      if (!fallback && unmarked && m.message_type === 1 && m.private === search.intent.private && m.sender?.id === search.intent.sender.id && sameText(m.content, search.intent.content)) {
        fallback = m;
      }
    }
    if (payload.length < AFTER_PAGE) break;
    after = Math.max(after, ...payload.map((m) => m.id));
  }
  return fallback && !keepsMarkers ? { message: fallback, by: 'content' } : undefined;
}
