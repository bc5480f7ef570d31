// The one way a conversation is read from the service and stored: ask, then save what came back
// through `saveConversations` (so the agent's queued actions stay on top and an older answer never
// replaces a newer one). The sender's read-back, a live message for a conversation not cached
// yet, the open conversation, and a list's leavers all come here.
import type { Conversation } from '../../../shared/api/records';
import type { Bridge } from '../../../shared/bridge/contract';
import type { BridgeError } from '../../../shared/bridge/result';
import { forgetConversation, saveConversations } from '../db/save';
import type { InboxDb } from '../db/schema';

export type RefreshOutcome =
  /** `etag`: the service's revision of it (null where the service gives none); `askedAt`: when the read went out. */
  | { kind: 'saved'; record: Conversation; etag: string | null; askedAt: number }
  /** The service says it does not exist (or this agent may no longer see it): forgotten here too. */
  | { kind: 'gone' }
  | { kind: 'failed'; error: BridgeError };

export async function refreshConversation(bridge: Bridge, db: InboxDb, conversationId: number, now: () => number = Date.now): Promise<RefreshOutcome> {
  const askedAt = now();
  const fresh = await bridge.call('conversations.read', { conversationId });
  if (fresh.ok) {
    await saveConversations(db, [fresh.value.conversation], askedAt);
    return { kind: 'saved', record: fresh.value.conversation, etag: fresh.value.etag, askedAt };
  }
  if (fresh.error.kind === 'not_found') {
    await forgetConversation(db, conversationId);
    return { kind: 'gone' };
  }
  return { kind: 'failed', error: fresh.error };
}
