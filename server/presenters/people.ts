// Contacts, users (agents) and teams as they appear inside other records (chatwoot-compat §2.7, §2.10, §2.12).
import type { Db } from '../db/open';
import { json, stmt } from '../db/open';
import type { UserRow } from '../store/users';
import type { BotRow } from '../store/agent-bots';
import { epoch } from './time';

export interface ContactRow {
  id: number;
  account_id: number;
  name: string;
  email: string | null;
  phone_number: string | null;
  identifier: string | null;
  contact_type: string;
  blocked: number;
  additional_attributes: string;
  custom_attributes: string;
  last_activity_at: number | null;
  created_at: number;
  updated_at: number;
  /** The avatar's uploads row and its absolute URL (migration 4); null without an avatar. */
  avatar_upload_id: number | null;
  thumbnail: string | null;
  /** An avatar_url as given: recorded, never fetched nor rendered. */
  avatar_external_url: string | null;
}

export interface TeamRow {
  id: number;
  account_id: number;
  name: string;
  description: string;
  allow_auto_assign: number;
}

export const contactById = (db: Db, id: number) => stmt(db, 'SELECT * FROM contacts WHERE id = ?').get(id) as ContactRow | undefined;
export const teamById = (db: Db, id: number) => stmt(db, 'SELECT * FROM teams WHERE id = ?').get(id) as TeamRow | undefined;

/** Contact REST partial (§2.7a), without contact_inboxes. */
export function contactRest(c: ContactRow) {
  return {
    additional_attributes: json.parse(c.additional_attributes),
    availability_status: 'offline',
    email: c.email,
    id: c.id,
    name: c.name,
    phone_number: c.phone_number,
    blocked: c.blocked === 1,
    identifier: c.identifier,
    thumbnail: c.thumbnail ?? '',
    custom_attributes: json.parse(c.custom_attributes),
    ...(c.last_activity_at == null ? {} : { last_activity_at: epoch(c.last_activity_at) }),
    created_at: epoch(c.created_at),
  };
}

/** Contact push_event_data (§2.7b). */
export function contactPush(c: ContactRow) {
  return {
    additional_attributes: json.parse(c.additional_attributes),
    custom_attributes: json.parse(c.custom_attributes),
    email: c.email,
    id: c.id,
    identifier: c.identifier,
    name: c.name,
    phone_number: c.phone_number,
    thumbnail: c.thumbnail ?? '',
    blocked: c.blocked === 1,
    type: 'contact',
  };
}

export const availableName = (u: UserRow) => u.display_name || u.name;

/** User push_event_data (§2.10b). */
export function userPush(u: UserRow) {
  return {
    id: u.id,
    name: u.name,
    available_name: availableName(u),
    avatar_url: '',
    type: 'user',
    availability_status: 'online',
    thumbnail: '',
  };
}

/** Agent partial (§2.10a), in the context of one account. */
export function agentPartial(db: Db, u: UserRow, accountId: number) {
  const membership = stmt(db, 'SELECT role, availability, auto_offline FROM account_users WHERE account_id = ? AND user_id = ?').get(
    accountId,
    u.id,
  ) as { role: string; availability: string; auto_offline: number } | undefined;
  return {
    id: u.id,
    account_id: accountId,
    availability_status: membership?.availability ?? 'offline',
    auto_offline: membership ? membership.auto_offline === 1 : true,
    confirmed: true,
    email: u.email,
    provider: 'email',
    available_name: availableName(u),
    name: u.name,
    role: membership?.role ?? 'agent',
    thumbnail: '',
  };
}

/** Team partial (§2.12). */
export function teamPartial(db: Db, t: TeamRow, userId: number) {
  const member = stmt(db, 'SELECT 1 FROM team_members WHERE team_id = ? AND user_id = ?').get(t.id, userId);
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    allow_auto_assign: t.allow_auto_assign === 1,
    account_id: t.account_id,
    is_member: Boolean(member),
  };
}

/** agent_bot_slim (§1.3): what assigning a bot returns, and a bot assignee inside a conversation. */
export function agentBotSlim(b: BotRow) {
  return { id: b.id, name: b.name, description: b.description ?? '', thumbnail: '', outgoing_url: b.outgoing_url, bot_type: 'webhook' };
}

/** AgentBot push_event_data (§2.10). */
export function agentBotPush(b: BotRow) {
  return { id: b.id, name: b.name, avatar_url: '', type: 'agent_bot' };
}
