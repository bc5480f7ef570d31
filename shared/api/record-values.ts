// The fixed values of the service's records (statuses, priorities, message types), apart from the
// schemas that parse them (records.ts): the renderer needs the values, and importing records.ts for
// them built every record schema with zod at every cold open (main parses; the page does not).
export const conversationStatuses = ['open', 'resolved', 'pending', 'snoozed'] as const;
export type ConversationStatus = (typeof conversationStatuses)[number];
export const priorities = ['low', 'medium', 'high', 'urgent'] as const;
export type Priority = (typeof priorities)[number];

/** Message types: the REST and socket APIs send integers, webhooks send strings. */
export const messageTypes = { incoming: 0, outgoing: 1, activity: 2, template: 3 } as const;
export type MessageTypeName = keyof typeof messageTypes;
