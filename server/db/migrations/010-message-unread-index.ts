// Schema version 10 (issue 14): a conversation's messages by type and time. Two reads ask "the
// incoming messages after a moment": the unread count (store/conversations.ts unreadCount: every
// conversation a list or the changes feed presents, and every live event of a message) and the
// newest incoming message's time (store/read-markers.ts markUnread). With only (conversation_id, id)
// to go on, SQLite read every message of the conversation from its oldest: for a conversation of
// 10,000 messages its agent had read to the last few, one unread count took about 0.5 ms, and each
// message's event and each list row paid it. This index answers both from its own entries (the
// count stops at its 10th; the newest is the range's last). Chatwoot keeps the same one
// (index_messages_on_conversation_account_type_created).
export const messageUnreadIndex = `
  CREATE INDEX messages_unread ON messages (conversation_id, message_type, created_at);
`;
