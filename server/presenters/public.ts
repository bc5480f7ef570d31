// Shapes the contact-facing families (Client API, Widget API) return: the raw Contact record
// (spec: Resources → Contact), the public conversation and message (chatwoot-compat §1.16), and
// the widget's message and contact summaries (§1.17). Private notes and activity messages never
// appear in any of them.
import type { Db } from '../db/open';
import { json } from '../db/open';
import type { ConversationRow } from '../store/conversations';
import type { ContactInboxRow } from '../store/contact-inboxes';
import { avatarAttributes } from '../store/contact-inboxes';
import { chatMessagesOf } from '../store/messages';
import type { MessageRow } from './message';
import { messageRest } from './message';
import type { ContactRow } from './people';
import { epoch, iso } from './time';

/** The Contact record as the Client API's contact update returns it (spec: Resources → Contact). */
export function contactRecord(c: ContactRow) {
  const additional = json.parse(c.additional_attributes);
  const fallback = avatarAttributes(c.id);
  const str = (k: string) => (typeof additional[k] === 'string' ? (additional[k] as string) : null);
  return {
    id: c.id,
    name: c.name,
    email: c.email,
    phone_number: c.phone_number,
    account_id: c.account_id,
    created_at: iso(c.created_at),
    updated_at: iso(c.updated_at),
    additional_attributes: {
      ...additional,
      avatar_background_color: typeof additional.avatar_background_color === 'string' ? additional.avatar_background_color : fallback.avatar_background_color,
      illustration_avatar_index: typeof additional.illustration_avatar_index === 'number' ? additional.illustration_avatar_index : fallback.illustration_avatar_index,
    },
    identifier: c.identifier,
    custom_attributes: json.parse(c.custom_attributes),
    last_activity_at: iso(c.last_activity_at),
    contact_type: c.contact_type,
    middle_name: str('middle_name') ?? '',
    last_name: str('last_name') ?? '',
    location: str('location'),
    country_code: str('country_code'),
    blocked: c.blocked === 1,
    company_id: null,
    label_list: [] as string[],
  };
}

/** Client contact create / read: the contact inbox's credentials and the contact's basics. */
export function clientContact(c: ContactRow, ci: ContactInboxRow) {
  return { source_id: ci.source_id, pubsub_token: ci.pubsub_token, id: c.id, name: c.name, email: c.email, phone_number: c.phone_number };
}

/** A message as contacts see it (public_message, and the widget's message list entries). */
/** `senderContact`: the sending contact's row, when the caller read it in this same turn (not read again). */
export function publicMessage(db: Db, m: MessageRow, displayId: number, senderContact?: ContactRow) {
  const rest = messageRest(db, m, displayId, undefined, senderContact);
  return {
    id: rest.id,
    content: rest.content,
    message_type: rest.message_type,
    content_type: rest.content_type,
    content_attributes: rest.content_attributes,
    created_at: rest.created_at,
    conversation_id: rest.conversation_id,
    ...(rest.attachments ? { attachments: rest.attachments } : {}),
    ...(rest.sender ? { sender: rest.sender } : {}),
  };
}

/** The widget's message create response (chatwoot-compat §1.17, POST messages). */
export function widgetCreatedMessage(db: Db, m: MessageRow, displayId: number, echoId?: string) {
  const rest = messageRest(db, m, displayId);
  return {
    id: rest.id,
    content: rest.content,
    inbox_id: rest.inbox_id,
    conversation_id: rest.conversation_id,
    message_type: rest.message_type,
    created_at: rest.created_at,
    private: rest.private,
    source_id: rest.source_id,
    content_attributes: rest.content_attributes,
    ...(echoId === undefined ? {} : { echo_id: echoId }),
    ...(rest.attachments ? { attachments: rest.attachments } : {}),
    ...(rest.sender ? { sender: rest.sender } : {}),
  };
}

/** public_conversation (chatwoot-compat §1.16). */
export function publicConversation(db: Db, c: ConversationRow, contact: ContactRow) {
  return {
    id: c.display_id,
    uuid: c.uuid,
    inbox_id: c.inbox_id,
    contact_last_seen_at: epoch(c.contact_last_seen_at),
    status: c.status,
    agent_last_seen_at: epoch(c.agent_last_seen_at),
    messages: chatMessagesOf(db, c.id).map((m) => publicMessage(db, m, c.display_id)),
    contact: contactRecord(contact),
  };
}

/** The widget's summary of its visitor (GET/PATCH /api/v1/widget/contact). */
export function widgetContactSummary(c: ContactRow, withIdentifier: boolean) {
  return {
    id: c.id,
    has_email: Boolean(c.email),
    has_name: Boolean(c.name),
    has_phone_number: Boolean(c.phone_number),
    ...(withIdentifier ? { identifier: c.identifier } : {}),
  };
}
