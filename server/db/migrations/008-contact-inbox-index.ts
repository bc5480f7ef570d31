// Schema version 8 (issue 14): a contact's contact inboxes by contact. Every live event of a
// conversation looks up its contact's verified contact inboxes (live/rooms.ts contactRooms), and
// other reads find a contact's contact inboxes the same way; without this index each of those
// scanned every contact inbox of the database.
export const contactInboxIndex = `
  CREATE INDEX contact_inboxes_contact ON contact_inboxes (contact_id);
`;
