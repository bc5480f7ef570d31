// What a live handler needs besides its callbacks, made the way the session client makes them:
// a history follower and the one conversation refresh, over the given bridge and cache.
import type { Bridge } from '../../../shared/bridge/contract';
import type { InboxDb } from '../../../renderer/src/db/schema';
import { callOrThrow } from '../../../renderer/src/platform/call';
import { HistoryFollower } from '../../../renderer/src/sync/history';
import { refreshConversation } from '../../../renderer/src/sync/refresh';

export const readersFor = (bridge: Bridge, db: InboxDb) => ({
  history: new HistoryFollower(db, (conversationId) => async (q) => (await callOrThrow(bridge, 'messages.list', { conversationId, ...q })).payload),
  refresh: (conversationId: number) => refreshConversation(bridge, db, conversationId),
});
