// Accounts (the tenant itself; creating one is provision.ts#createAccount).
import type { Db } from '../db/open';
import { json, stmt } from '../db/open';

export interface AccountRow {
  id: number;
  name: string;
  status: string;
  locale: string;
  domain: string | null;
  support_email: string | null;
  auto_resolve_duration: number | null;
  custom_attributes: string;
  created_at: number;
}

export const accountById = (db: Db, id: number) => stmt(db, 'SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow;

/** The account's settings; fields left undefined stay, custom attributes merge into the stored ones. */
export function updateAccount(
  db: Db,
  a: AccountRow,
  change: {
    name?: string | undefined;
    locale?: string | undefined;
    domain?: string | null | undefined;
    supportEmail?: string | null | undefined;
    autoResolveDuration?: number | null | undefined;
    customAttributes?: Record<string, unknown> | undefined;
  },
): AccountRow {
  stmt(db, 'UPDATE accounts SET name = ?, locale = ?, domain = ?, support_email = ?, auto_resolve_duration = ?, custom_attributes = ? WHERE id = ?').run(
    change.name ?? a.name,
    change.locale ?? a.locale,
    change.domain === undefined ? a.domain : change.domain,
    change.supportEmail === undefined ? a.support_email : change.supportEmail,
    change.autoResolveDuration === undefined ? a.auto_resolve_duration : change.autoResolveDuration,
    JSON.stringify({ ...json.parse(a.custom_attributes), ...(change.customAttributes ?? {}) }),
    a.id,
  );
  return accountById(db, a.id);
}

export const setAccountLocale = (db: Db, id: number, locale: string) => stmt(db, 'UPDATE accounts SET locale = ? WHERE id = ?').run(locale, id);
