// Schema version 5 (sync): conversation revisions and one change sequence (SYNC-PROTOCOL.md, "The service's optional help").
// Kept by triggers, so every code path that writes these tables keeps them, whatever it is.
// - conversations.revision (the ETag): +1 whenever state an agent can set changes (status, snoozed_until,
//   priority, assignee_id, assignee_agent_bot_id, team_id, custom_attributes, agent_last_seen_at,
//   assignee_last_seen_at) or a label is added or removed; not for other columns (a message's
//   last_activity_at), so a new message changes it only when it changes one of those.
// - change_sequence: one counter for the whole database. Every insert or update of a conversation or a
//   message, and every conversation deletion, takes the next value: conversations.change_seq and
//   messages.change_seq hold a row's latest, conversation_removals records deletions. The changes feed
//   reads them in that one order. `epoch` is random per database, so a cursor from another database
//   (one that was reset) is recognised as foreign.
// Rows that exist before this migration keep change_seq 0 (before any cursor).
export const syncRevisions = `
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
  `;
