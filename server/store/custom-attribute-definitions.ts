// Custom attribute definitions (chatwoot-compat §1.15): the typed fields an account defines for its
// conversations' and contacts' custom_attributes. Enums are stored as the reference's integers.
import type { Db } from '../db/open';
import { stmt } from '../db/open';

export interface CustomAttributeDefinitionRow {
  id: number;
  account_id: number;
  attribute_model: number;
  attribute_key: string;
  attribute_display_name: string;
  attribute_display_type: number;
  attribute_description: string | null;
  attribute_values: string;
  default_value: string | null;
  regex_pattern: string | null;
  regex_cue: string | null;
  created_at: number;
  updated_at: number;
}

export interface DefinitionFields {
  attribute_model: number;
  attribute_key: string;
  attribute_display_name: string;
  attribute_display_type: number;
  attribute_description: string | null;
  attribute_values: string[];
  default_value: string | null;
  regex_pattern: string | null;
  regex_cue: string | null;
}

export const definitionById = (db: Db, accountId: number, id: number) =>
  stmt(db, 'SELECT * FROM custom_attribute_definitions WHERE id = ? AND account_id = ?').get(id, accountId) as CustomAttributeDefinitionRow | undefined;

/** The account's definitions, of one model or all. */
export function definitionsOf(db: Db, accountId: number, model?: number): CustomAttributeDefinitionRow[] {
  return (
    model === undefined
      ? stmt(db, 'SELECT * FROM custom_attribute_definitions WHERE account_id = ? ORDER BY id').all(accountId)
      : stmt(db, 'SELECT * FROM custom_attribute_definitions WHERE account_id = ? AND attribute_model = ? ORDER BY id').all(accountId, model)
  ) as CustomAttributeDefinitionRow[];
}

/** Whether another definition of the model already uses the key. */
export const keyTaken = (db: Db, accountId: number, model: number, key: string, selfId = 0) =>
  Boolean(stmt(db, 'SELECT 1 FROM custom_attribute_definitions WHERE account_id = ? AND attribute_model = ? AND attribute_key = ? AND id != ?').get(accountId, model, key, selfId));

export function insertDefinition(db: Db, accountId: number, f: DefinitionFields, now: number): CustomAttributeDefinitionRow {
  const id = Number(
    stmt(
      db,
      `INSERT INTO custom_attribute_definitions (account_id, attribute_model, attribute_key, attribute_display_name, attribute_display_type, attribute_description,
         attribute_values, default_value, regex_pattern, regex_cue, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(accountId, f.attribute_model, f.attribute_key, f.attribute_display_name, f.attribute_display_type, f.attribute_description, JSON.stringify(f.attribute_values), f.default_value, f.regex_pattern, f.regex_cue, now, now)
      .lastInsertRowid,
  );
  return definitionById(db, accountId, id)!;
}

export function updateDefinition(db: Db, row: CustomAttributeDefinitionRow, f: DefinitionFields, now: number): CustomAttributeDefinitionRow {
  stmt(
    db,
    `UPDATE custom_attribute_definitions SET attribute_model = ?, attribute_key = ?, attribute_display_name = ?, attribute_display_type = ?, attribute_description = ?,
       attribute_values = ?, default_value = ?, regex_pattern = ?, regex_cue = ?, updated_at = ? WHERE id = ?`,
  ).run(f.attribute_model, f.attribute_key, f.attribute_display_name, f.attribute_display_type, f.attribute_description, JSON.stringify(f.attribute_values), f.default_value, f.regex_pattern, f.regex_cue, now, row.id);
  return definitionById(db, row.account_id, row.id)!;
}

export const deleteDefinition = (db: Db, id: number) => stmt(db, 'DELETE FROM custom_attribute_definitions WHERE id = ?').run(id);
