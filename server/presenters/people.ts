// Contacts, users (agents) and teams as they appear inside other records (chatwoot-compat §2.7, §2.10, §2.12).
import type { Db } from '../db/open';
import { json } from '../db/open';
import type { BotRow } from '../store/agent-bots';
import type { ContactRow } from '../store/contacts';
import type { TeamRow } from '../store/teams';
import { isTeamMember } from '../store/teams';
import type { UserRow } from '../store/users';
import { membershipIn } from '../store/users';
import { epoch } from './time';

// The rows and finders live in store/; presenters and routes have long imported them from here.
export type { ContactRow } from '../store/contacts';
export { contactById } from '../store/contacts';
export type { TeamRow } from '../store/teams';
export { teamById } from '../store/teams';

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
  const membership = membershipIn(db, accountId, u.id);
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
  const member = isTeamMember(db, t.id, userId);
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
