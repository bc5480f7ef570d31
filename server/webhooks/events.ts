// The webhook event catalogue (chatwoot-compat §5): names a subscription may hold, and which domain
// event each one is. Inbox-scoped events also go to a Channel::Api inbox's own webhook_url.
import type { DomainEventName } from '../events/bus';

export const WEBHOOK_EVENTS = [
  'conversation_created',
  'conversation_status_changed',
  'conversation_updated',
  'contact_created',
  'contact_updated',
  'message_created',
  'message_updated',
  'webwidget_triggered',
  'inbox_created',
  'inbox_updated',
  'conversation_typing_on',
  'conversation_typing_off',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Domain event → webhook event name (snake_case). Events not listed are never delivered. */
export const WEBHOOK_NAME: Partial<Record<DomainEventName, WebhookEvent>> = {
  'conversation.created': 'conversation_created',
  'conversation.status_changed': 'conversation_status_changed',
  'conversation.updated': 'conversation_updated',
  'contact.created': 'contact_created',
  'contact.updated': 'contact_updated',
  'message.created': 'message_created',
  'message.updated': 'message_updated',
  'conversation.typing_on': 'conversation_typing_on',
  'conversation.typing_off': 'conversation_typing_off',
};

/** Events that belong to an inbox (the API inbox webhook_url receives all of these). */
export const INBOX_SCOPED = new Set<WebhookEvent>([
  'conversation_created',
  'conversation_status_changed',
  'conversation_updated',
  'message_created',
  'message_updated',
  'conversation_typing_on',
  'conversation_typing_off',
  'webwidget_triggered',
]);
