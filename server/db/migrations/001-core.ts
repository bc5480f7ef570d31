// Schema version 1: accounts, users, inboxes, contacts, conversations, messages
export const coreSchema = `
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
  `;
