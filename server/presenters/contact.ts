// Contacts as the /contacts endpoints return them (chatwoot-compat §2.7a with contact_inboxes),
// the slim inbox inside them, the raw inbox model a contact create returns, search and note shapes.
import type { Db } from '../db/open';
import { json } from '../db/open';
import { inboxesOfContact } from '../store/contact-inboxes';
import type { UserRow } from '../store/users';
import type { InboxRow } from '../store/inboxes';
import { inboxSettings } from './inbox';
import type { ContactRow } from './people';
import { agentPartial, contactRest } from './people';
import { epoch, iso } from './time';

export function inboxSlim(i: InboxRow) {
  return { id: i.id, avatar_url: '', channel_id: i.channel_id, name: i.name, channel_type: i.channel_type, provider: null };
}

/** The Inbox model's own columns (what `render json: inbox` gives). */
export function inboxRaw(i: InboxRow) {
  const s = inboxSettings(i);
  return {
    id: i.id,
    channel_id: i.channel_id,
    account_id: i.account_id,
    name: i.name,
    created_at: iso(i.created_at),
    updated_at: iso(i.created_at),
    channel_type: i.channel_type,
    enable_auto_assignment: s.enable_auto_assignment,
    greeting_enabled: s.greeting_enabled,
    greeting_message: s.greeting_message,
    email_address: null,
    working_hours_enabled: s.working_hours_enabled,
    out_of_office_message: s.out_of_office_message,
    timezone: s.timezone,
    enable_email_collect: s.enable_email_collect,
    csat_survey_enabled: s.csat_survey_enabled,
    allow_messages_after_resolved: s.allow_messages_after_resolved,
    auto_assignment_config: s.auto_assignment_config,
    lock_to_single_conversation: s.lock_to_single_conversation,
    portal_id: null,
    sender_name_type: s.sender_name_type,
    business_name: s.business_name,
  };
}

/** Contact REST partial plus `contact_inboxes` (the /contacts endpoints include them by default). */
export function contactWithInboxes(db: Db, c: ContactRow, visibleInboxIds?: number[]) {
  const links = inboxesOfContact(db, c.id);
  return {
    ...contactRest(c),
    contact_inboxes: links.filter((l) => !visibleInboxIds || visibleInboxIds.includes(l.id)).map((l) => ({ source_id: l.source_id, inbox: inboxSlim(l) })),
  };
}

/** Search result contact (chatwoot-compat §2.15). */
export function contactSearchResult(c: ContactRow) {
  return {
    email: c.email,
    id: c.id,
    name: c.name,
    phone_number: c.phone_number,
    identifier: c.identifier,
    additional_attributes: json.parse(c.additional_attributes),
    last_activity_at: c.last_activity_at == null ? null : epoch(c.last_activity_at),
  };
}

export interface NoteRow {
  id: number;
  account_id: number;
  contact_id: number;
  user_id: number | null;
  content: string;
  created_at: number;
  updated_at: number;
}

/**
 * Contact note (chatwoot-compat §2.13). The reference renders `account_id` and `contact_id` as null
 * because of a jbuilder bug; this service sends the real values, which no client can be hurt by.
 */
export function notePresenter(db: Db, n: NoteRow, users: (id: number) => UserRow | undefined) {
  const user = n.user_id == null ? undefined : users(n.user_id);
  return {
    id: n.id,
    content: n.content,
    account_id: n.account_id,
    contact_id: n.contact_id,
    ...(user ? { user: agentPartial(db, user, n.account_id) } : {}),
    created_at: epoch(n.created_at),
    updated_at: epoch(n.updated_at),
  };
}
