// Sending is phase 2: it goes through the outbox (db `outbox` table) so a message is neither lost
// nor sent twice (the service does not deduplicate POSTs). Until that lands the composer keeps the
// draft, disables the button, and says so; nothing pretends to have sent.
import type { ComposerMode, InboxDb } from '../db/schema';

export const SENDING_AVAILABLE = false;

export interface OutgoingMessage {
  conversationId: number;
  text: string;
  mode: ComposerMode;
}

/** Phase 2 wires this to the write path (queue in `outbox`, then `messages.create` through main). */
export async function sendComposedMessage(_db: InboxDb, _message: OutgoingMessage): Promise<never> {
  throw new Error('Sending arrives with the write path; the draft is kept.');
}
