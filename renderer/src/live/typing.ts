// Who is typing in which conversation, from `conversation.typing_on/off`. Transient UI state (never
// cached): an indicator clears on typing_off, or 30 s after the last typing_on, as the reference
// dashboard does, so a lost typing_off cannot leave "is typing…" up for good.
import { create } from 'zustand';

export const TYPING_TIMEOUT_MS = 30_000;

export interface Typist {
  name: string;
  /** An agent writing a private note (the contact never sees this one). */
  isPrivate: boolean;
  /** A colleague (an agent), as opposed to the contact. */
  agent?: boolean;
}

interface TypingState {
  /** Per conversation, per typist key (`user:3`, `contact:9`). */
  byConversation: Record<number, Record<string, Typist>>;
  start(conversationId: number, key: string, typist: Typist): void;
  stop(conversationId: number, key: string): void;
  clear(): void;
}

const timers = new Map<string, ReturnType<typeof setTimeout>>();
const timerKey = (conversationId: number, key: string) => `${conversationId}/${key}`;

export const useTyping = create<TypingState>()((set, get) => ({
  byConversation: {},
  start(conversationId, key, typist) {
    const k = timerKey(conversationId, key);
    clearTimeout(timers.get(k));
    timers.set(k, setTimeout(() => get().stop(conversationId, key), TYPING_TIMEOUT_MS));
    set((s) => ({ byConversation: { ...s.byConversation, [conversationId]: { ...s.byConversation[conversationId], [key]: typist } } }));
  },
  stop(conversationId, key) {
    const k = timerKey(conversationId, key);
    clearTimeout(timers.get(k));
    timers.delete(k);
    set((s) => {
      const current = s.byConversation[conversationId];
      if (!current || !(key in current)) return s;
      const { [key]: _gone, ...rest } = current;
      const byConversation = { ...s.byConversation };
      if (Object.keys(rest).length) byConversation[conversationId] = rest;
      else delete byConversation[conversationId];
      return { byConversation };
    });
  },
  clear() {
    for (const t of timers.values()) clearTimeout(t);
    timers.clear();
    set({ byConversation: {} });
  },
}));

const who = (names: readonly string[]) => (names.length === 1 ? names[0]! : names.length === 2 ? `${names[0]} and ${names[1]}` : `${names[0]} and ${names.length - 1} others`);

/**
 * What the contact and colleagues are doing, kept apart: "Dana is typing…" (the contact), "Alex is
 * replying…" / "Alex is writing a note…" (colleagues). Names are text, rendered as text.
 */
export function typingLines(typists: readonly Typist[]): { contact?: string; colleagues?: string } {
  const contacts = typists.filter((t) => !t.agent).map((t) => t.name);
  const agents = typists.filter((t) => t.agent);
  const out: { contact?: string; colleagues?: string } = {};
  if (contacts.length) out.contact = `${who(contacts)} ${contacts.length === 1 ? 'is' : 'are'} typing…`;
  if (agents.length) {
    const notes = agents.every((t) => t.isPrivate);
    out.colleagues = `${who(agents.map((t) => t.name))} ${agents.length === 1 ? 'is' : 'are'} ${notes ? 'writing a note' : 'replying'}…`;
  }
  return out;
}

/** One line for a narrow place (a list row): colleagues first, they are who the agent might collide with. */
export function typingLine(typists: readonly Typist[]): string | undefined {
  const lines = typingLines(typists);
  return lines.colleagues ?? lines.contact;
}
