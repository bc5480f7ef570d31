// Schema version 7 (interop): custom attribute definitions (chatwoot-compat §1.15 `A/custom_attribute_definitions`; the
// reference's enums kept as integers: attribute_model conversation 0 / contact 1, attribute_display_type
// text 0, number 1, currency 2, percent 3, link 4, date 5, list 6, checkbox 7).
export const customAttributeDefinitions = `
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
  `;
