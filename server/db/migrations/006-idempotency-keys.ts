// Schema version 6 (sync): Idempotency-Key (SYNC-PROTOCOL.md, "The service's optional help"). The answer to the first successful
// creating POST with a key, stored in the same transaction as what it created, per account and caller identity
// (user or agent bot); replayed for the same request while younger than the retention (24 h by default),
// purged opportunistically after. `fingerprint` hashes the method, path with query and body.
export const idempotencyKeys = `
  CREATE TABLE idempotency_keys (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    owner_type TEXT NOT NULL CHECK (owner_type IN ('User', 'AgentBot')),
    owner_id INTEGER NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, owner_type, owner_id, key)
  );
  CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
  `;
