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
  | { kind: 'saved'; record: Conversation }
  /** The service says it does not exist (or this agent may no longer see it): forgotten here too. */
  | { kind: 'gone' }
  | { kind: 'failed'; error: BridgeError };

export async function refreshConversation(bridge: Bridge, db: InboxDb, conversationId: number, now: () => number = Date.now): Promise<RefreshOutcome> {
  const askedAt = now();
  const fresh = await bridge.call('conversations.get', { conversationId });
  if (fresh.ok) {
    await saveConversations(db, [fresh.value], askedAt);
    return { kind: 'saved', record: fresh.value };
  }
  if (fresh.error.kind === 'not_found') {
    await forgetConversation(db, conversationId);
    return { kind: 'gone' };
  }
  return { kind: 'failed', error: fresh.error };
}
