// Direct reads from the service under test, to compare what the app shows with what the service
// says (never used to drive the app).
import type { Stack } from './fixtures';

export async function serviceGet<T>(stack: Stack, path: string): Promise<T> {
  const res = await fetch(`${stack.creds.baseUrl}/api/v1/accounts/${stack.creds.accountId}${path}`, { headers: { api_access_token: stack.creds.agentToken } });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return (await res.json()) as T;
}

export interface ListMeta {
  mine_count: number;
  unassigned_count: number;
  all_count: number;
}

export const listMeta = async (stack: Stack, query: string) =>
  (await serviceGet<{ data: { meta: ListMeta } }>(stack, `/conversations?${query}`)).data.meta;

export interface ServiceConversation {
  id: number;
  status: string;
  priority: string | null;
  labels: string[];
  snoozed_until: string | null;
  unread_count: number;
  meta: { assignee?: { id: number; name: string } | null; team?: { id: number; name: string } | null };
}
export interface ServiceMessage {
  id: number;
  content: string | null;
  private: boolean;
  message_type: number;
  content_attributes: Record<string, unknown>;
}

export const serviceConversation = (stack: Stack, id: number) => serviceGet<ServiceConversation>(stack, `/conversations/${id}`);

/** Every message of a conversation (one `after`+`before` page holds up to 1000). */
export const serviceMessages = async (stack: Stack, id: number) => (await serviceGet<{ payload: ServiceMessage[] }>(stack, `/conversations/${id}/messages?after=0&before=2147483647`)).payload;

/**
 * Changes the service behind the app's back, as another agent or an administrator would (here:
 * deleting a conversation the agent has open). Never a step of the journey itself.
 */
export async function asAdministrator(stack: Stack, method: 'DELETE' | 'PATCH', path: string, body?: unknown): Promise<number> {
  const res = await fetch(`${stack.creds.baseUrl}/api/v1/accounts/${stack.creds.accountId}${path}`, {
    method,
    headers: { api_access_token: stack.creds.adminToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return res.status;
}

interface ListedConversation {
  id: number;
  last_non_activity_message: { content: string | null } | null;
}

/** One of the demo's conversations with hundreds of messages (their text is numbered "(#n)"), and its whole history. */
export async function longDemoConversation(stack: Stack): Promise<{ id: number; count: number; messages: ServiceMessage[] }> {
  for (let page = 1; page < 40; page++) {
    const list = (await serviceGet<{ data: { payload: ListedConversation[] } }>(stack, `/conversations?status=all&page=${page}`)).data.payload;
    if (!list.length) break;
    for (const c of list) {
      const n = Number(/\(#(\d+)\)$/.exec(c.last_non_activity_message?.content ?? '')?.[1]);
      if (n >= 180) return { id: c.id, count: n, messages: await serviceMessages(stack, c.id) };
    }
  }
  throw new Error('the demo has no long conversation visible to the agent');
}
