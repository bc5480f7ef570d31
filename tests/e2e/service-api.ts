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
