// The reference's advanced filters (chatwoot-compat §1.2 `POST conversations/filter`, §1.4
// `POST contacts/filter`, §3 filter operators): a list of conditions
// `{attribute_key, filter_operator, values, query_operator, custom_attribute_type?}` joined in
// order by each one's `query_operator` (`and`/`or`; SQL's precedence, as the reference builds one
// SQL string). Standard attributes map to columns; any other key is a custom attribute. Values are
// always bound parameters. An unknown attribute or an operator the attribute does not take is a
// validation failure naming `payload`.
import { z } from 'zod';
import { invalid } from '../http/errors';

const operators = ['equal_to', 'not_equal_to', 'contains', 'does_not_contain', 'is_present', 'is_not_present', 'is_greater_than', 'is_less_than', 'days_before', 'starts_with'] as const;
type Operator = (typeof operators)[number];

export const filterPayload = z
  .array(
    z.object({
      attribute_key: z.string().min(1).max(100),
      filter_operator: z.enum(operators, { error: `is not one of: ${operators.join(', ')}` }),
      values: z.array(z.union([z.string().max(1000), z.number(), z.boolean(), z.null()])).max(100).optional(),
      query_operator: z
        .union([z.string().max(10), z.null()])
        .optional()
        .transform((v) => (v ?? 'and').toLowerCase()),
      custom_attribute_type: z.string().max(50).nullish(),
    }),
  )
  .min(1, 'must have at least one condition')
  .max(50);
export type FilterPayload = z.output<typeof filterPayload>;

export interface Condition {
  sql: string;
  args: unknown[];
}

type Kind = 'text' | 'number' | 'date' | 'labels' | 'boolean';
interface Attribute {
  /** SQL for the value, over alias `c`. */
  expr: string;
  kind: Kind;
}

const TEXT_OPS: Operator[] = ['equal_to', 'not_equal_to', 'contains', 'does_not_contain', 'is_present', 'is_not_present', 'starts_with'];
const OPS: Record<Kind, Operator[]> = {
  text: TEXT_OPS,
  number: ['equal_to', 'not_equal_to', 'is_present', 'is_not_present', 'is_greater_than', 'is_less_than'],
  date: ['is_greater_than', 'is_less_than', 'days_before', 'equal_to', 'is_present', 'is_not_present'],
  labels: ['equal_to', 'not_equal_to', 'is_present', 'is_not_present'],
  boolean: ['equal_to', 'not_equal_to'],
};

const additional = (key: string) => `json_extract(c.additional_attributes, '$.${key}')`;
const CONVERSATION: Record<string, Attribute> = {
  status: { expr: 'c.status', kind: 'text' },
  priority: { expr: 'c.priority', kind: 'text' },
  assignee_id: { expr: 'c.assignee_id', kind: 'number' },
  inbox_id: { expr: 'c.inbox_id', kind: 'number' },
  team_id: { expr: 'c.team_id', kind: 'number' },
  contact_id: { expr: 'c.contact_id', kind: 'number' },
  display_id: { expr: 'c.display_id', kind: 'number' },
  id: { expr: 'c.display_id', kind: 'number' },
  labels: { expr: 'conversation_labels', kind: 'labels' },
  browser_language: { expr: additional('browser_language'), kind: 'text' },
  conversation_language: { expr: additional('conversation_language'), kind: 'text' },
  country_code: { expr: additional('country_code'), kind: 'text' },
  referer: { expr: additional('referer'), kind: 'text' },
  mail_subject: { expr: additional('mail_subject'), kind: 'text' },
  created_at: { expr: 'c.created_at', kind: 'date' },
  last_activity_at: { expr: 'c.last_activity_at', kind: 'date' },
};
const CONTACT: Record<string, Attribute> = {
  name: { expr: 'c.name', kind: 'text' },
  email: { expr: 'c.email', kind: 'text' },
  phone_number: { expr: 'c.phone_number', kind: 'text' },
  identifier: { expr: 'c.identifier', kind: 'text' },
  country_code: { expr: additional('country_code'), kind: 'text' },
  city: { expr: additional('city'), kind: 'text' },
  company: { expr: additional('company_name'), kind: 'text' },
  referer: { expr: additional('referer'), kind: 'text' },
  blocked: { expr: 'c.blocked', kind: 'boolean' },
  labels: { expr: 'contact_labels', kind: 'labels' },
  created_at: { expr: 'c.created_at', kind: 'date' },
  last_activity_at: { expr: 'c.last_activity_at', kind: 'date' },
};

const DAY = 86_400_000;
const escapeLike = (v: string) => v.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** A date value as milliseconds: epoch seconds, or an ISO date/time. */
function dateValue(value: unknown): number | undefined {
  if (typeof value === 'number' || (typeof value === 'string' && /^\d{9,11}$/.test(value))) return Number(value) * 1000;
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

function condition(attr: Attribute, op: Operator, values: unknown[], now: number, labelTable: string, owner: string): Condition {
  const fail = (message: string) => invalid(`payload ${message}`, ['payload']);
  if (!OPS[attr.kind].includes(op)) throw fail(`${op} is not an operator for this attribute`);
  if (op === 'is_present' || op === 'is_not_present') {
    const present = attr.kind === 'labels' ? `EXISTS (SELECT 1 FROM ${labelTable} l WHERE l.${owner} = c.id)` : `COALESCE(CAST(${attr.expr} AS TEXT), '') != ''`;
    return { sql: op === 'is_present' ? present : `NOT (${present})`, args: [] };
  }
  const given = values.filter((v) => v !== null && v !== '');
  if (!given.length) throw fail(`${op} needs values`);
  if (attr.kind === 'labels') {
    const has = `EXISTS (SELECT 1 FROM ${labelTable} l WHERE l.${owner} = c.id AND l.title IN (${given.map(() => '?').join(',')}))`;
    return { sql: op === 'equal_to' ? has : `NOT ${has}`, args: given.map(String) };
  }
  if (attr.kind === 'date') {
    if (op === 'days_before') {
      const days = Number(given[0]);
      if (!Number.isFinite(days)) throw fail('days_before needs a number of days');
      return { sql: `${attr.expr} < ?`, args: [now - days * DAY] };
    }
    const ms = dateValue(given[0]);
    if (ms === undefined) throw fail('needs a date');
    if (op === 'equal_to') return { sql: `${attr.expr} >= ? AND ${attr.expr} < ?`, args: [ms, ms + DAY] };
    return { sql: `${attr.expr} ${op === 'is_greater_than' ? '>' : '<'} ?`, args: [ms] };
  }
  if (attr.kind === 'number' || attr.kind === 'boolean') {
    const nums = given.map((v) => (typeof v === 'boolean' ? Number(v) : v === 'true' ? 1 : v === 'false' ? 0 : Number(v)));
    if (nums.some((n) => !Number.isFinite(n))) throw fail('needs numbers');
    if (op === 'is_greater_than' || op === 'is_less_than') return { sql: `${attr.expr} ${op === 'is_greater_than' ? '>' : '<'} ?`, args: [nums[0]] };
    const list = `${attr.expr} IN (${nums.map(() => '?').join(',')})`;
    return { sql: op === 'equal_to' ? list : `(${attr.expr} IS NULL OR NOT ${list})`, args: nums };
  }
  const texts = given.map((v) => String(v).toLowerCase());
  const lower = `LOWER(CAST(${attr.expr} AS TEXT))`;
  switch (op) {
    case 'equal_to':
      return { sql: `${lower} IN (${texts.map(() => '?').join(',')})`, args: texts };
    case 'not_equal_to':
      return { sql: `(${attr.expr} IS NULL OR ${lower} NOT IN (${texts.map(() => '?').join(',')}))`, args: texts };
    case 'contains':
      return { sql: `${lower} LIKE ? ESCAPE '\\'`, args: [`%${escapeLike(texts[0]!)}%`] };
    case 'does_not_contain':
      return { sql: `(${attr.expr} IS NULL OR ${lower} NOT LIKE ? ESCAPE '\\')`, args: [`%${escapeLike(texts[0]!)}%`] };
    default:
      return { sql: `${lower} LIKE ? ESCAPE '\\'`, args: [`${escapeLike(texts[0]!)}%`] };
  }
}

/** The payload as one SQL condition over `c` (conversations or contacts). */
export function filterCondition(kind: 'conversation' | 'contact', payload: FilterPayload, now: number): Condition {
  const standard = kind === 'conversation' ? CONVERSATION : CONTACT;
  const labelTable = kind === 'conversation' ? 'conversation_labels' : 'contact_labels';
  const owner = kind === 'conversation' ? 'conversation_id' : 'contact_id';
  let sql = '';
  const args: unknown[] = [];
  payload.forEach((item, i) => {
    const custom = !Object.hasOwn(standard, item.attribute_key) || item.custom_attribute_type;
    if (custom && !/^[\w-]{1,100}$/.test(item.attribute_key)) throw invalid(`payload has an invalid attribute key: ${item.attribute_key.slice(0, 40)}`, ['payload']);
    const attr: Attribute = custom ? { expr: `json_extract(c.custom_attributes, '$."${item.attribute_key}"')`, kind: 'text' } : standard[item.attribute_key]!;
    const part = condition(attr, item.filter_operator, item.values ?? [], now, labelTable, owner);
    if (i > 0) {
      const joiner = payload[i - 1]!.query_operator;
      if (joiner !== 'and' && joiner !== 'or') throw invalid(`payload query_operator must be and or or`, ['payload']);
      sql += joiner === 'or' ? ' OR ' : ' AND ';
    }
    sql += `(${part.sql})`;
    args.push(...part.args);
  });
  return { sql: `(${sql})`, args };
}
