// Schema version 4 (avatars): a contact's avatar. The image bytes are an uploads row (served like attachments); `thumbnail` is
// its absolute URL, formed when it was stored, as attachment data_url is. `avatar_external_url` records an
// avatar_url as given: never fetched, never rendered (see server/README.md).
export const contactAvatars = `
  ALTER TABLE contacts ADD COLUMN avatar_upload_id INTEGER REFERENCES uploads(id);
  ALTER TABLE contacts ADD COLUMN thumbnail TEXT;
  ALTER TABLE contacts ADD COLUMN avatar_external_url TEXT;
  `;
