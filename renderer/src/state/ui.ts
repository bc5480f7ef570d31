// UI state only (what is selected, which view and overlays are showing). Server data lives in
// Dexie and TanStack Query, never here.
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { ListView } from '../conversations/view';
import { defaultView } from '../conversations/view';
import type { ComposerMode } from '../db/schema';
import { writeWhenChanged } from './write-when-changed';

/** The triage pickers: each applies to `triageTargets`. */
export type PickerKind = 'assign' | 'team' | 'labels' | 'priority' | 'snooze';
export type Overlay = 'palette' | 'shortcuts' | 'notifications' | 'waiting' | PickerKind | undefined;
/** Below this width the contact panel replaces the conversation instead of sitting beside it (styles.css). */
export const NARROW_QUERY = '(max-width: 1099px)';

/** Which pane has the agent's attention on narrow screens (200% zoom), where one pane shows. */
export type NarrowPane = 'list' | 'conversation' | 'contact';

interface UiState {
  selectedConversationId: number | undefined;
  /** The row the keyboard cursor is on (j/k), which Enter opens. */
  activeConversationId: number | undefined;
  /**
   * The agent moved the cursor (j/k) since opening a conversation: triage keys then act on the
   * highlighted row. Opening one gives the lead back to it (the cursor may also move on its own,
   * when a row leaves the view; that does not count).
   */
  cursorLeads: boolean;
  view: ListView;
  overlay: Overlay;
  searchQuery: string;
  narrowPane: NarrowPane;
  contactPanelOpen: boolean;
  /** A request for the composer to take focus in a mode; the counter makes repeats distinct. */
  composerFocus: { mode: ComposerMode; n: number } | undefined;
  /** A request for the search field to take focus. */
  searchFocus: number;
  /** A request to edit the open conversation's contact (the panel opens its form); the counter makes repeats distinct. */
  contactEdit: number;
  /** A short message for the agent in the app's live region ("This link cannot be opened"). */
  notice: { text: string; n: number } | undefined;
  /** Conversations picked for a bulk action (x, Shift+J/K), in the order picked. */
  bulkSelection: number[];
  /** What the open picker applies to. */
  triageTargets: number[];
  /** A message to take the agent to when its conversation shows (a search hit); `n` makes repeats distinct. */
  jump: { conversationId: number; messageId: number; n: number } | undefined;
  select(id: number | undefined): void;
  /** Opens a conversation at one of its messages. */
  openAt(conversationId: number, messageId: number): void;
  setActive(id: number | undefined): void;
  /** The agent moves the cursor (j/k, Shift+J/K). */
  moveCursor(id: number): void;
  setView(patch: Partial<ListView>): void;
  setOverlay(o: Overlay): void;
  setSearchQuery(q: string): void;
  showPane(p: NarrowPane): void;
  toggleContactPanel(): void;
  /**
   * The contact details, shown or hidden the way the window's width allows: beside the
   * conversation when wide, in its place when narrow (one pane at a time). The `i` key and the
   * header's Contact button both come here.
   */
  toggleContact(): void;
  focusComposer(mode: ComposerMode): void;
  focusSearch(): void;
  editContact(): void;
  notify(text: string): void;
  clearNotice(): void;
  toggleBulk(id: number): void;
  addToBulk(ids: readonly number[]): void;
  setBulk(ids: readonly number[]): void;
  openPicker(kind: PickerKind, targets: readonly number[]): void;
}

// The list view (tab, status, filters, sort) is kept across restarts, so the app reopens where the
// agent left it, drawn from the cache at once. Everything else starts fresh.
export const useUi = create<UiState>()(
  persist(
    (set) => ({
      selectedConversationId: undefined,
      activeConversationId: undefined,
      cursorLeads: false,
      view: defaultView,
      overlay: undefined,
      searchQuery: '',
      narrowPane: 'list',
      contactPanelOpen: true,
      composerFocus: undefined,
      searchFocus: 0,
      contactEdit: 0,
      notice: undefined,
      bulkSelection: [],
      triageTargets: [],
      jump: undefined,
      select: (id) => set({ selectedConversationId: id, activeConversationId: id, cursorLeads: false, narrowPane: id === undefined ? 'list' : 'conversation', jump: undefined }),
      openAt: (conversationId, messageId) =>
        set((s) => ({
          selectedConversationId: conversationId,
          activeConversationId: conversationId,
          cursorLeads: false,
          narrowPane: 'conversation',
          jump: { conversationId, messageId, n: (s.jump?.n ?? 0) + 1 },
        })),
      setActive: (id) => set({ activeConversationId: id }),
      moveCursor: (id) => set({ activeConversationId: id, cursorLeads: true }),
      setView: (patch) => set((s) => ({ view: { ...s.view, ...patch } })),
      setOverlay: (overlay) => set({ overlay }),
      setSearchQuery: (searchQuery) => set({ searchQuery }),
      showPane: (narrowPane) => set({ narrowPane }),
      toggleContactPanel: () => set((s) => ({ contactPanelOpen: !s.contactPanelOpen })),
      toggleContact: () =>
        set((s) =>
          window.matchMedia(NARROW_QUERY).matches ? { narrowPane: s.narrowPane === 'contact' ? 'conversation' : 'contact' } : { contactPanelOpen: !s.contactPanelOpen },
        ),
      focusComposer: (mode) => set((s) => ({ composerFocus: { mode, n: (s.composerFocus?.n ?? 0) + 1 } })),
      focusSearch: () => set((s) => ({ searchFocus: s.searchFocus + 1 })),
      // Narrow windows show one pane at a time: the contact's.
      editContact: () => set((s) => ({ contactEdit: s.contactEdit + 1, contactPanelOpen: true, ...(window.matchMedia(NARROW_QUERY).matches ? { narrowPane: 'contact' as const } : {}) })),
      notify: (text) => set((s) => ({ notice: { text, n: (s.notice?.n ?? 0) + 1 } })),
      clearNotice: () => set({ notice: undefined }),
      toggleBulk: (id) => set((s) => ({ bulkSelection: s.bulkSelection.includes(id) ? s.bulkSelection.filter((x) => x !== id) : [...s.bulkSelection, id] })),
      addToBulk: (ids) => set((s) => ({ bulkSelection: [...s.bulkSelection, ...ids.filter((id) => !s.bulkSelection.includes(id))] })),
      setBulk: (ids) => set({ bulkSelection: [...ids] }),
      openPicker: (kind, targets) => set({ overlay: kind, triageTargets: [...targets] }),
    }),
    { name: 'inbox.view', storage: createJSONStorage(() => writeWhenChanged(localStorage)), version: 1, partialize: (s) => ({ view: s.view }) },
  ),
);
