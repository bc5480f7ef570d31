// Who is typing in which conversation, from `conversation.typing_on/off`. Transient UI state (never
// cached): an indicator clears on typing_off, or 30 s after the last typing_on, as the reference
// dashboard does, so a lost typing_off cannot leave "is typing…" up for good.
import { create } from 'zustand';

export const TYPING_TIMEOUT_MS = 30_000;

export interface Typist {
  name: string;
  /** An agent writing a private note (the contact never sees this one). */
  isPrivate: boolean;
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

/** "Dana is typing…", "Dana and Sam are typing…", or undefined. Names are text, rendered as text. */
export function typingLine(typists: readonly Typist[]): string | undefined {
  if (!typists.length) return undefined;
  const names = typists.map((t) => t.name);
  const who = names.length === 1 ? names[0] : names.length === 2 ? `${names[0]} and ${names[1]}` : `${names[0]} and ${names.length - 1} others`;
  const note = typists.length === 1 && typists[0]!.isPrivate;
  return `${who} ${names.length === 1 ? 'is' : 'are'} ${note ? 'writing a note' : 'typing'}…`;
}
