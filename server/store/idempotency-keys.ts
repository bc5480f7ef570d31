// Stored answers of creating POSTs sent with an Idempotency-Key (migration 6). The caller (the route
// through http/idempotency.ts) looks a key up and stores an answer inside the transaction that created
// the record, so the two commit or roll back together.
import type { Db } from '../db/open';
import { stmt } from '../db/open';

export interface IdempotencyKeyRow {
  account_id: number;
  owner_type: 'User' | 'AgentBot';
  owner_id: number;
  key: string;
  fingerprint: string;
  status: number;
  content_type: string;
  body: string;
  created_at: number;
}

/** Whose key it is: keys are scoped to the account and the credential's identity. */
export type KeyScope = Pick<IdempotencyKeyRow, 'account_id' | 'owner_type' | 'owner_id' | 'key'>;

/** The stored answer for this key, if it was stored after `notBefore` (older ones have expired). */
export function storedAnswer(db: Db, scope: KeyScope, notBefore: number): IdempotencyKeyRow | undefined {
  return stmt(db, 'SELECT * FROM idempotency_keys WHERE account_id = ? AND owner_type = ? AND owner_id = ? AND key = ? AND created_at > ?').get(
    scope.account_id,
    scope.owner_type,
    scope.owner_id,
    scope.key,
    notBefore,
  ) as IdempotencyKeyRow | undefined;
}

/** Stores an answer, first deleting every expired one (stored at or before `notBefore`), this key's included. */
export function storeAnswer(db: Db, row: IdempotencyKeyRow, notBefore: number): void {
  stmt(db, 'DELETE FROM idempotency_keys WHERE created_at <= ?').run(notBefore);
  stmt(
    db,
    `INSERT INTO idempotency_keys (account_id, owner_type, owner_id, key, fingerprint, status, content_type, body, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(row.account_id, row.owner_type, row.owner_id, row.key, row.fingerprint, row.status, row.content_type, row.body, row.created_at);
}
