// Named operations: how each bridge call that reads or writes the service becomes a request.
// The renderer names an operation and gives validated arguments; only this table knows paths.
import type { BridgeCallName, BridgeParsedInput } from '../../../shared/bridge/contract';
import { bridgeCalls } from '../../../shared/bridge/contract';
import { CLIENT_MESSAGE_ID_KEY } from '../../../shared/bridge/calls/messages';
import type { UploadProgress } from '../../../shared/bridge/calls/messages';
import type { LocalCallName } from '../handlers/types';
import type { ServiceRequest } from './client';

export interface OperationContext {
  accountId: number;
  /** Told how much of a message's files has gone (main emits `messages.uploadProgress`). */
  uploadProgress?: (progress: UploadProgress) => void;
}

/** Every call that is not answered by main itself becomes a request to the service. */
type ApiCallName = Exclude<BridgeCallName, LocalCallName>;

const account = (accountId: number) => `/api/v1/accounts/${accountId}`;
const conversation = (accountId: number, id: number) => `${account(accountId)}/conversations/${id}`;
const ifMatch = (etag: string | undefined): Record<string, string> => (etag === undefined ? {} : { 'if-match': etag });

export const operations: { [C in ApiCallName]: (input: BridgeParsedInput<C>, ctx: OperationContext) => ServiceRequest } = {
  'conversations.list': (input, { accountId }) => ({
    method: 'GET',
    path: `/api/v1/accounts/${accountId}/conversations`,
    query: {
      page: input.page,
      status: input.status,
      assignee_type: input.assigneeType,
      inbox_id: input.inboxId,
      team_id: input.teamId,
      labels: input.labels,
      q: input.q,
      sort_by: input.sortBy,
      updated_within: input.updatedWithin,
    },
  }),
  'conversations.get': (input, { accountId }) => ({
    method: 'GET',
    path: `/api/v1/accounts/${accountId}/conversations/${input.conversationId}`,
  }),
  'conversations.read': (input, { accountId }) => ({
    method: 'GET',
    path: conversation(accountId, input.conversationId),
    respond: (body, headers) => ({ conversation: body, etag: headers.get('etag') }),
  }),
  'changes.list': (input, { accountId }) => ({ method: 'GET', path: `${account(accountId)}/changes`, query: { since: input.since, limit: input.limit } }),
  'messages.list': (input, { accountId }) => ({
    method: 'GET',
    path: `/api/v1/accounts/${accountId}/conversations/${input.conversationId}/messages`,
    query: { before: input.before, after: input.after },
  }),
  'inboxes.list': (_input, { accountId }) => ({ method: 'GET', path: `${account(accountId)}/inboxes` }),
  'agents.list': (_input, { accountId }) => ({ method: 'GET', path: `${account(accountId)}/agents` }),
  'teams.list': (_input, { accountId }) => ({ method: 'GET', path: `${account(accountId)}/teams` }),
  'labels.list': (_input, { accountId }) => ({ method: 'GET', path: `${account(accountId)}/labels` }),
  'cannedResponses.list': (input, { accountId }) => ({
    method: 'GET',
    path: `${account(accountId)}/canned_responses`,
    query: { search: input.search || undefined },
  }),
  'contacts.get': (input, { accountId }) => ({ method: 'GET', path: `${account(accountId)}/contacts/${input.contactId}` }),
  'contacts.conversations': (input, { accountId }) => ({ method: 'GET', path: `${account(accountId)}/contacts/${input.contactId}/conversations` }),
  'contacts.labels': (input, { accountId }) => ({ method: 'GET', path: `${account(accountId)}/contacts/${input.contactId}/labels` }),
  'contacts.notes': (input, { accountId }) => ({ method: 'GET', path: `${account(accountId)}/contacts/${input.contactId}/notes` }),
  'search.all': (input, { accountId }) => ({ method: 'GET', path: `${account(accountId)}/search`, query: { q: input.q, page: input.page } }),

  // Writes. Each goes once (the client never retries a POST); the renderer's outbox decides. A
  // conversation write carries the revision it was decided on when the renderer has one
  // (`If-Match`): the service then refuses it if anything changed since (SYNC-PROTOCOL.md).
  'conversations.toggleStatus': (input, { accountId }) => ({
    method: 'POST',
    headers: ifMatch(input.ifMatch),
    path: `${conversation(accountId, input.conversationId)}/toggle_status`,
    // Epoch seconds as the reference parses them; no snoozed_until means "until the next reply".
    body: { status: input.status, ...(input.snoozedUntil === undefined ? {} : { snoozed_until: input.snoozedUntil }) },
  }),
  'conversations.togglePriority': (input, { accountId }) => ({
    method: 'POST',
    headers: ifMatch(input.ifMatch),
    path: `${conversation(accountId, input.conversationId)}/toggle_priority`,
    body: { priority: input.priority },
  }),
  'conversations.assign': (input, { accountId }) => ({
    method: 'POST',
    headers: ifMatch(input.ifMatch),
    path: `${conversation(accountId, input.conversationId)}/assignments`,
    body: { assignee_id: input.assigneeId },
  }),
  'conversations.assignTeam': (input, { accountId }) => ({
    method: 'POST',
    headers: ifMatch(input.ifMatch),
    path: `${conversation(accountId, input.conversationId)}/assignments`,
    body: { team_id: input.teamId },
  }),
  'conversations.setLabels': (input, { accountId }) => ({
    method: 'POST',
    headers: ifMatch(input.ifMatch),
    path: `${conversation(accountId, input.conversationId)}/labels`,
    body: { labels: input.labels },
  }),
  'conversations.updateLastSeen': (input, { accountId }) => ({ method: 'POST', headers: ifMatch(input.ifMatch), path: `${conversation(accountId, input.conversationId)}/update_last_seen` }),
  'conversations.markUnread': (input, { accountId }) => ({ method: 'POST', headers: ifMatch(input.ifMatch), path: `${conversation(accountId, input.conversationId)}/unread` }),
  'conversations.typing': (input, { accountId }) => ({
    method: 'POST',
    path: `${conversation(accountId, input.conversationId)}/toggle_typing_status`,
    body: { typing_status: input.on ? 'on' : 'off', is_private: input.private },
  }),
  // Contact writes: no revisions on contacts, so the outbox keeps one request of unknown outcome per
  // contact and waits out the landing window after one (SYNC-PROTOCOL.md, contacts).
  'contacts.update': (input, { accountId }) => ({
    method: 'PATCH',
    path: `${account(accountId)}/contacts/${input.contactId}`,
    body: {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.email === undefined ? {} : { email: input.email }),
      ...(input.phoneNumber === undefined ? {} : { phone_number: input.phoneNumber }),
      ...(input.customAttributes === undefined ? {} : { custom_attributes: input.customAttributes }),
    },
  }),
  'contacts.removeAttributes': (input, { accountId }) => ({ method: 'POST', path: `${account(accountId)}/contacts/${input.contactId}/destroy_custom_attributes`, body: { custom_attributes: input.keys } }),
  'contacts.setLabels': (input, { accountId }) => ({ method: 'POST', path: `${account(accountId)}/contacts/${input.contactId}/labels`, body: { labels: input.labels } }),
  'contacts.createNote': (input, { accountId }) => ({
    method: 'POST',
    // As for messages: a repeat with the same key is answered with the first note where the service honours it.
    headers: { 'idempotency-key': input.clientId },
    path: `${account(accountId)}/contacts/${input.contactId}/notes`,
    body: { note: { content: input.content } },
  }),
  'contacts.deleteNote': (input, { accountId }) => ({ method: 'DELETE', path: `${account(accountId)}/contacts/${input.contactId}/notes/${input.noteId}` }),
  'messages.create': (input, { accountId, uploadProgress }) => {
    const request = {
      method: 'POST' as const,
      // A service that honours it answers a repeat with the first send's message (no second copy);
      // one that does not ignores an unknown header, so it always goes.
      headers: { 'idempotency-key': input.clientId },
      path: `${conversation(accountId, input.conversationId)}/messages`,
    };
    // Stored with the message, so a later read can tell whether this send landed.
    const marker = { [CLIENT_MESSAGE_ID_KEY]: input.clientId };
    if (!input.attachments) {
      return { ...request, body: { content: input.content, private: input.private, message_type: 'outgoing', echo_id: input.clientId, content_attributes: marker } };
    }
    // With files: multipart form data, as Chatwoot's dashboard sends it (`attachments[]` file parts,
    // `content_attributes` as a JSON string, no `content` when there is no caption).
    return {
      ...request,
      form: {
        fields: [
          ...(input.content.trim() ? ([['content', input.content]] as const) : []),
          ['private', String(input.private)],
          ['message_type', 'outgoing'],
          ['echo_id', input.clientId],
          ['content_attributes', JSON.stringify(marker)],
        ],
        files: input.attachments.map((f) => ({ field: 'attachments[]', name: f.name, type: f.type, data: Buffer.from(f.data, 'base64') })),
      },
      ...(uploadProgress ? { onUploadProgress: (sent: number, total: number) => uploadProgress({ clientId: input.clientId, sent, total }) } : {}),
    };
  },
};

export const isApiCall = (name: BridgeCallName): name is ApiCallName => Object.prototype.hasOwnProperty.call(operations, name);

export const outputSchemaOf = <C extends ApiCallName>(name: C) => bridgeCalls[name].output as (typeof bridgeCalls)[C]['output'];
