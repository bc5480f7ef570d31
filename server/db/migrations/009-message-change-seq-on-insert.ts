// Schema version 9 (issue 14): a message insert may take its change sequence value in the INSERT
// itself (store/writes.ts does: `(SELECT value + 1 FROM change_sequence WHERE id = 1)`), so the
// trigger no longer writes the new row a second time (and moves its messages_changes index entry
// from change_seq 0 to the value) when the row already holds the value. The trigger still bumps the
// sequence on every insert and sets the row's change_seq whenever it does not hold the bumped value
// (an insert that names none: 0), so every insert ends with the same change_seq as under version 5's.
export const messageChangeSeqOnInsert = `
  DROP TRIGGER messages_change_on_insert;
  CREATE TRIGGER messages_change_on_insert AFTER INSERT ON messages BEGIN
    UPDATE change_sequence SET value = value + 1 WHERE id = 1;
    UPDATE messages SET change_seq = (SELECT value FROM change_sequence WHERE id = 1)
      WHERE id = NEW.id AND change_seq IS NOT (SELECT value FROM change_sequence WHERE id = 1);
  END;
`;
