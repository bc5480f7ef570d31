// UI state only (what is selected, which view is showing). Server data lives in Dexie and
// TanStack Query, never here.
import { create } from 'zustand';

interface UiState {
  selectedConversationId: number | undefined;
  select(id: number | undefined): void;
}

export const useUi = create<UiState>((set) => ({
  selectedConversationId: undefined,
  select: (id) => set({ selectedConversationId: id }),
}));
