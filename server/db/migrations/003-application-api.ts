// Schema version 3 (server-app): Application API: bots on inboxes, contact labels and notes, custom filters, notifications,
// assignment policies, reporting events, uploads, transcript requests; profile/account fields
export const applicationApi = `
  ALTER TABLE users ADD COLUMN message_signature TEXT;
  ALTER TABLE users ADD COLUMN ui_settings TEXT NOT NULL DEFAULT '{}';
  ALTER TABLE accounts ADD COLUMN domain TEXT;
  ALTER TABLE accounts ADD COLUMN support_email TEXT;
  ALTER TABLE accounts ADD COLUMN auto_resolve_duration INTEGER;
  ALTER TABLE accounts ADD COLUMN custom_attributes TEXT NOT NULL DEFAULT '{}';
  -- Per-account conversation number sequence, so a deleted conversation's display id is never reused.
  ALTER TABLE accounts ADD COLUMN conversation_seq INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE teams ADD COLUMN updated_at INTEGER;
  ALTER TABLE conversations ADD COLUMN assignee_agent_bot_id INTEGER REFERENCES agent_bots(id);
  CREATE TABLE agent_bot_inboxes (
    inbox_id INTEGER PRIMARY KEY REFERENCES inboxes(id),
    agent_bot_id INTEGER NOT NULL REFERENCES agent_bots(id),
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive'))
  );
  CREATE TABLE contact_labels (
    contact_id INTEGER NOT NULL REFERENCES contacts(id),
    title TEXT NOT NULL,
    PRIMARY KEY (contact_id, title)
  );
  CREATE TABLE contact_notes (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    contact_id INTEGER NOT NULL REFERENCES contacts(id),
    user_id INTEGER REFERENCES users(id),
    content TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX contact_notes_contact ON contact_notes (contact_id, id);
  CREATE TABLE custom_filters (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    name TEXT NOT NULL,
    filter_type TEXT NOT NULL CHECK (filter_type IN ('conversation', 'contact', 'report')),
    query TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX custom_filters_owner ON custom_filters (account_id, user_id, filter_type);
  CREATE TABLE notifications (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    notification_type TEXT NOT NULL,
    primary_actor_type TEXT NOT NULL,
    primary_actor_id INTEGER NOT NULL,
    secondary_actor_type TEXT,
    secondary_actor_id INTEGER,
    read_at INTEGER,
    snoozed_until INTEGER,
    meta TEXT NOT NULL DEFAULT '{}',
    last_activity_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX notifications_user ON notifications (user_id, account_id, last_activity_at);
  CREATE TABLE assignment_policies (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    assignment_order TEXT NOT NULL DEFAULT 'round_robin' CHECK (assignment_order IN ('round_robin', 'balanced')),
    conversation_priority TEXT NOT NULL DEFAULT 'earliest_created' CHECK (conversation_priority IN ('earliest_created', 'longest_waiting')),
    fair_distribution_limit INTEGER NOT NULL DEFAULT 100,
    fair_distribution_window INTEGER NOT NULL DEFAULT 3600,
    enabled INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (account_id, name)
  );
  CREATE TABLE inbox_assignment_policies (
    inbox_id INTEGER PRIMARY KEY REFERENCES inboxes(id),
    assignment_policy_id INTEGER NOT NULL REFERENCES assignment_policies(id)
  );
  CREATE TABLE reporting_events (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL CHECK (name IN ('first_response', 'reply_time', 'conversation_resolved')),
    value REAL NOT NULL,
    inbox_id INTEGER,
    user_id INTEGER,
    conversation_id INTEGER,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX reporting_events_account ON reporting_events (account_id, name, created_at);
  CREATE TABLE uploads (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    blob_key TEXT NOT NULL UNIQUE,
    filename TEXT NOT NULL,
    content_type TEXT NOT NULL,
    byte_size INTEGER NOT NULL,
    checksum TEXT,
    external_url TEXT,
    data BLOB,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE transcript_requests (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    conversation_id INTEGER NOT NULL REFERENCES conversations(id),
    email TEXT NOT NULL,
    requested_by INTEGER,
    created_at INTEGER NOT NULL
  );
  `;
