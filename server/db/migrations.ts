// Versioned schema migrations. `PRAGMA user_version` records how many have run; each runs once, in a
// transaction, in order. Never edit a migration that has shipped: add the next one.
// Times are stored as integer milliseconds since the epoch (UTC); presenters format them.
export const migrations: readonly string[] = [
  /* 1: accounts, users, inboxes, contacts, conversations, messages */ `
  CREATE TABLE accounts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
    locale TEXT NOT NULL DEFAULT 'en',
    created_at INTEGER NOT NULL
  );
  CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    display_name TEXT,
    email TEXT NOT NULL UNIQUE,
    pubsub_token TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE account_users (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    role TEXT NOT NULL CHECK (role IN ('agent', 'administrator')),
    availability TEXT NOT NULL DEFAULT 'online' CHECK (availability IN ('online', 'offline', 'busy')),
    auto_offline INTEGER NOT NULL DEFAULT 1,
    active_at INTEGER,
    PRIMARY KEY (account_id, user_id)
  );
  CREATE TABLE agent_bots (
    id INTEGER PRIMARY KEY,
    account_id INTEGER REFERENCES accounts(id),
    name TEXT NOT NULL,
    description TEXT,
    outgoing_url TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE access_tokens (
    token TEXT PRIMARY KEY,
    owner_type TEXT NOT NULL CHECK (owner_type IN ('User', 'AgentBot')),
    owner_id INTEGER NOT NULL
  );
  CREATE INDEX access_tokens_owner ON access_tokens (owner_type, owner_id);
  CREATE TABLE inboxes (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL,
    channel_type TEXT NOT NULL,
    channel_id INTEGER NOT NULL,
    identifier TEXT UNIQUE,
    website_token TEXT UNIQUE,
    hmac_token TEXT NOT NULL,
    hmac_mandatory INTEGER NOT NULL DEFAULT 0,
    webhook_url TEXT,
    settings TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL
  );
  CREATE TABLE inbox_members (
    inbox_id INTEGER NOT NULL REFERENCES inboxes(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    PRIMARY KEY (inbox_id, user_id)
  );
  CREATE TABLE teams (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    allow_auto_assign INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL,
    UNIQUE (account_id, name)
  );
  CREATE TABLE team_members (
    team_id INTEGER NOT NULL REFERENCES teams(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    PRIMARY KEY (team_id, user_id)
  );
  CREATE TABLE labels (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    title TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    color TEXT NOT NULL DEFAULT '#1f93ff',
    show_on_sidebar INTEGER NOT NULL DEFAULT 1,
    UNIQUE (account_id, title)
  );
  CREATE TABLE canned_responses (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    short_code TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (account_id, short_code)
  );
  CREATE TABLE contacts (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL DEFAULT '',
    email TEXT,
    phone_number TEXT,
    identifier TEXT,
    contact_type TEXT NOT NULL DEFAULT 'lead',
    blocked INTEGER NOT NULL DEFAULT 0,
    additional_attributes TEXT NOT NULL DEFAULT '{}',
    custom_attributes TEXT NOT NULL DEFAULT '{}',
    last_activity_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX contacts_account ON contacts (account_id, id);
  CREATE TABLE contact_inboxes (
    id INTEGER PRIMARY KEY,
    contact_id INTEGER NOT NULL REFERENCES contacts(id),
    inbox_id INTEGER NOT NULL REFERENCES inboxes(id),
    source_id TEXT NOT NULL,
    hmac_verified INTEGER NOT NULL DEFAULT 0,
    pubsub_token TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (inbox_id, source_id)
  );
  CREATE TABLE conversations (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    display_id INTEGER NOT NULL,
    inbox_id INTEGER NOT NULL REFERENCES inboxes(id),
    contact_id INTEGER NOT NULL REFERENCES contacts(id),
    contact_inbox_id INTEGER REFERENCES contact_inboxes(id),
    uuid TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'pending', 'snoozed')),
    priority TEXT CHECK (priority IN ('low', 'medium', 'high', 'urgent')),
    assignee_id INTEGER REFERENCES users(id),
    team_id INTEGER REFERENCES teams(id),
    snoozed_until INTEGER,
    custom_attributes TEXT NOT NULL DEFAULT '{}',
    additional_attributes TEXT NOT NULL DEFAULT '{}',
    agent_last_seen_at INTEGER,
    assignee_last_seen_at INTEGER,
    contact_last_seen_at INTEGER,
    first_reply_created_at INTEGER,
    waiting_since INTEGER,
    last_activity_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (account_id, display_id)
  );
  CREATE INDEX conversations_list ON conversations (account_id, status, last_activity_at);
  CREATE INDEX conversations_contact ON conversations (contact_id);
  CREATE TABLE conversation_labels (
    conversation_id INTEGER NOT NULL REFERENCES conversations(id),
    title TEXT NOT NULL,
    PRIMARY KEY (conversation_id, title)
  );
  CREATE INDEX conversation_labels_title ON conversation_labels (title);
  CREATE TABLE messages (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    inbox_id INTEGER NOT NULL REFERENCES inboxes(id),
    conversation_id INTEGER NOT NULL REFERENCES conversations(id),
    message_type INTEGER NOT NULL CHECK (message_type BETWEEN 0 AND 3),
    content_type TEXT NOT NULL DEFAULT 'text',
    content TEXT,
    private INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'sent',
    source_id TEXT,
    content_attributes TEXT NOT NULL DEFAULT '{}',
    additional_attributes TEXT NOT NULL DEFAULT '{}',
    sender_type TEXT,
    sender_id INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX messages_conversation ON messages (conversation_id, id);
  CREATE TABLE attachments (
    id INTEGER PRIMARY KEY,
    message_id INTEGER NOT NULL REFERENCES messages(id),
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    file_type TEXT NOT NULL,
    extension TEXT,
    data_url TEXT,
    thumb_url TEXT,
    file_size INTEGER,
    width INTEGER,
    height INTEGER,
    fallback_title TEXT
  );
  CREATE INDEX attachments_message ON attachments (message_id);
  `,
  /* 2 (server-public): account webhooks; service secrets (the widget session-token signing key) */ `
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
  `,
  /* 3 (server-app): Application API: bots on inboxes, contact labels and notes, custom filters, notifications,
        assignment policies, reporting events, uploads, transcript requests; profile/account fields */ `
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
  `,
  /* 4 (avatars): a contact's avatar. The image bytes are an uploads row (served like attachments); `thumbnail` is
        its absolute URL, formed when it was stored, as attachment data_url is. `avatar_external_url` records an
        avatar_url as given: never fetched, never rendered (see server/README.md). */ `
  ALTER TABLE contacts ADD COLUMN avatar_upload_id INTEGER REFERENCES uploads(id);
  ALTER TABLE contacts ADD COLUMN thumbnail TEXT;
  ALTER TABLE contacts ADD COLUMN avatar_external_url TEXT;
  `,
  /* 5 (sync): conversation revisions and one change sequence (SYNC-PROTOCOL.md, "The service's optional help").
        Kept by triggers, so every code path that writes these tables keeps them, whatever it is.
        - conversations.revision (the ETag): +1 whenever state an agent can set changes (status, snoozed_until,
          priority, assignee_id, assignee_agent_bot_id, team_id, custom_attributes, agent_last_seen_at,
          assignee_last_seen_at) or a label is added or removed; not for other columns (a message's
          last_activity_at), so a new message changes it only when it changes one of those.
        - change_sequence: one counter for the whole database. Every insert or update of a conversation or a
          message, and every conversation deletion, takes the next value: conversations.change_seq and
          messages.change_seq hold a row's latest, conversation_removals records deletions. The changes feed
          reads them in that one order. `epoch` is random per database, so a cursor from another database
          (one that was reset) is recognised as foreign.
        Rows that exist before this migration keep change_seq 0 (before any cursor). */ `
  ALTER TABLE conversations ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE conversations ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE messages ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE change_sequence (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    value INTEGER NOT NULL,
    epoch TEXT NOT NULL
  );
  INSERT INTO change_sequence (id, value, epoch) VALUES (1, 0, lower(hex(randomblob(8))));
  CREATE TABLE conversation_removals (
    change_seq INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL,
    inbox_id INTEGER NOT NULL,
    display_id INTEGER NOT NULL
  );
  CREATE INDEX conversations_changes ON conversations (account_id, change_seq);
  CREATE INDEX messages_changes ON messages (account_id, change_seq);
  CREATE INDEX conversation_removals_account ON conversation_removals (account_id, change_seq);

  CREATE TRIGGER conversations_change_on_insert AFTER INSERT ON conversations BEGIN
    UPDATE change_sequence SET value = value + 1 WHERE id = 1;
    UPDATE conversations SET change_seq = (SELECT value FROM change_sequence WHERE id = 1) WHERE id = NEW.id;
  END;
  -- The trigger's own write changes change_seq, which the WHEN clause leaves alone.
  CREATE TRIGGER conversations_change_on_update AFTER UPDATE ON conversations WHEN NEW.change_seq IS OLD.change_seq BEGIN
    UPDATE change_sequence SET value = value + 1 WHERE id = 1;
    UPDATE conversations SET
      change_seq = (SELECT value FROM change_sequence WHERE id = 1),
      revision = revision + (
        OLD.status IS NOT NEW.status OR OLD.snoozed_until IS NOT NEW.snoozed_until OR OLD.priority IS NOT NEW.priority
        OR OLD.assignee_id IS NOT NEW.assignee_id OR OLD.assignee_agent_bot_id IS NOT NEW.assignee_agent_bot_id
        OR OLD.team_id IS NOT NEW.team_id OR OLD.custom_attributes IS NOT NEW.custom_attributes
        OR OLD.agent_last_seen_at IS NOT NEW.agent_last_seen_at OR OLD.assignee_last_seen_at IS NOT NEW.assignee_last_seen_at)
    WHERE id = NEW.id;
  END;
  CREATE TRIGGER conversations_change_on_delete AFTER DELETE ON conversations BEGIN
    UPDATE change_sequence SET value = value + 1 WHERE id = 1;
    INSERT INTO conversation_removals (change_seq, account_id, inbox_id, display_id)
      SELECT value, OLD.account_id, OLD.inbox_id, OLD.display_id FROM change_sequence WHERE id = 1;
  END;
  -- A label change is a conversation change: the revision moves, and so (through the update trigger) its change_seq.
  CREATE TRIGGER conversation_labels_revision_on_insert AFTER INSERT ON conversation_labels BEGIN
    UPDATE conversations SET revision = revision + 1 WHERE id = NEW.conversation_id;
  END;
  CREATE TRIGGER conversation_labels_revision_on_delete AFTER DELETE ON conversation_labels BEGIN
    UPDATE conversations SET revision = revision + 1 WHERE id = OLD.conversation_id;
  END;
  CREATE TRIGGER messages_change_on_insert AFTER INSERT ON messages BEGIN
    UPDATE change_sequence SET value = value + 1 WHERE id = 1;
    UPDATE messages SET change_seq = (SELECT value FROM change_sequence WHERE id = 1) WHERE id = NEW.id;
  END;
  CREATE TRIGGER messages_change_on_update AFTER UPDATE ON messages WHEN NEW.change_seq IS OLD.change_seq BEGIN
    UPDATE change_sequence SET value = value + 1 WHERE id = 1;
    UPDATE messages SET change_seq = (SELECT value FROM change_sequence WHERE id = 1) WHERE id = NEW.id;
  END;
  `,
  /* 6 (sync): Idempotency-Key (SYNC-PROTOCOL.md, "The service's optional help"). The answer to the first successful
        creating POST with a key, stored in the same transaction as what it created, per account and caller identity
        (user or agent bot); replayed for the same request while younger than the retention (24 h by default),
        purged opportunistically after. `fingerprint` hashes the method, path with query and body. */ `
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
  `,
  /* 7 (interop): custom attribute definitions (chatwoot-compat §1.15 `A/custom_attribute_definitions`; the
        reference's enums kept as integers: attribute_model conversation 0 / contact 1, attribute_display_type
        text 0, number 1, currency 2, percent 3, link 4, date 5, list 6, checkbox 7). */ `
  CREATE TABLE custom_attribute_definitions (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    attribute_model INTEGER NOT NULL CHECK (attribute_model IN (0, 1)),
    attribute_key TEXT NOT NULL,
    attribute_display_name TEXT NOT NULL,
    attribute_display_type INTEGER NOT NULL DEFAULT 0 CHECK (attribute_display_type BETWEEN 0 AND 7),
    attribute_description TEXT,
    attribute_values TEXT NOT NULL DEFAULT '[]',
    default_value TEXT,
    regex_pattern TEXT,
    regex_cue TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (account_id, attribute_model, attribute_key)
  );
  `,
];
