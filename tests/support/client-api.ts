// The public Client API as a contact's own client calls it (no agent credentials), for end-to-end
// tests and benchmarks: make a contact, open a conversation, write in it.
export interface ContactRef {
  source_id: string;
}

export function contactClient(baseUrl: string, inboxIdentifier: string) {
  const at = (path: string) => `${baseUrl}/public/api/v1/inboxes/${inboxIdentifier}${path}`;
  const post = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await fetch(at(path), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const api = {
    contact: (name: string) => post<ContactRef>('/contacts', { name }),
    conversation: async (c: ContactRef) => (await post<{ id: number }>(`/contacts/${c.source_id}/conversations`, {})).id,
    write: (c: ContactRef, conversationId: number, content: string) => post(`/contacts/${c.source_id}/conversations/${conversationId}/messages`, { content }),
    /** A new contact with a conversation of its own; `write` writes in it. */
    async start(name: string) {
      const c = await api.contact(name);
      const conversation = await api.conversation(c);
      return { conversation, write: (content: string) => api.write(c, conversation, content) };
    },
  };
  return api;
}
