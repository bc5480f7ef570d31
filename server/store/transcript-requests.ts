// Conversation transcripts asked for by email (transcript_requests): this service has no mail
// transport, so a request is recorded for whatever delivers mail.
import type { Db } from '../db/open';
import { stmt } from '../db/open';

export const recordTranscriptRequest = (db: Db, r: { accountId: number; conversationId: number; email: string; requestedBy: number; now: number }) =>
  stmt(db, 'INSERT INTO transcript_requests (account_id, conversation_id, email, requested_by, created_at) VALUES (?, ?, ?, ?, ?)').run(r.accountId, r.conversationId, r.email, r.requestedBy, r.now);
