// Schema version 2 (server-public): account webhooks; service secrets (the widget session-token signing key)
export const webhooksAndSecrets = `
  CREATE TABLE webhooks (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    inbox_id INTEGER REFERENCES inboxes(id),
    name TEXT,
    url TEXT NOT NULL,
    subscriptions TEXT NOT NULL DEFAULT '[]',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (account_id, url)
  );
  CREATE TABLE service_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  `;
