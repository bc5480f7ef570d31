// A command context for registry-level tests: records what commands asked for (view changes,
// opens, composer focus, and every triage action with its targets) instead of doing it.
import type { InboxCommandContext } from '../../../renderer/src/commands/inbox-commands';
import type { TriageCommandContext } from '../../../renderer/src/commands/triage-commands';
import { defaultView } from '../../../renderer/src/conversations/view';
import { defaultSettings } from '../../../renderer/src/notifications/settings';

export interface TriageCall {
  op: string;
  ids?: number[];
  arg?: unknown;
}

export function fakeInboxContext(over: Partial<InboxCommandContext> = {}, order: readonly number[] = [11, 12, 13]) {
  const state = {
    view: { ...defaultView },
    activeId: undefined as number | undefined,
    opened: [] as number[],
    composer: [] as string[],
    overlay: undefined as InboxCommandContext['overlay'],
    searchFocused: 0,
    bulk: [] as number[],
    triage: [] as TriageCall[],
    labelsOnTargets: [] as string[],
    unsent: { waiting: 0, failed: 0 },
    /** The outbox seq of a conflict waiting for the agent. */
    conflict: undefined as number | undefined,
    notifySettings: defaultSettings('UTC'),
    now: Date.UTC(2026, 10, 25, 12),
  };
  const log = (op: string, ids?: number[], arg?: unknown) => state.triage.push({ op, ...(ids ? { ids } : {}), ...(arg === undefined ? {} : { arg }) });
  // The inbox's rule, minus focus: the selection, else the open conversation, else the cursor.
  const targets = () => (state.bulk.length ? [...state.bulk] : state.opened.length ? [state.opened.at(-1)!] : state.activeId !== undefined ? [state.activeId] : []);
  const triage = (): TriageCommandContext => ({
    targets,
    bulk: state.bulk,
    me: { id: 2, name: 'Sam Patel' },
    targetLabels: () => state.labelsOnTargets,
    setStatus: (ids, s) => log('status', ids, s),
    snooze: (ids, preset) => log('snooze', ids, preset),
    setPriority: (ids, p) => log('priority', ids, p),
    assign: (ids, a) => log('assign', ids, a),
    assignTeam: (ids, t) => log('team', ids, t),
    changeLabels: (ids, change) => log('labels', ids, change),
    markRead: (ids) => log('read', ids),
    markUnread: (ids) => log('unread', ids),
    resolveAndNext: () => log('resolveAndNext'),
    openPicker: (kind, ids) => {
      state.overlay = kind;
      log(`picker:${kind}`, ids);
    },
    toggleBulk: (id) => (state.bulk = state.bulk.includes(id) ? state.bulk.filter((x) => x !== id) : [...state.bulk, id]),
    addToBulk: (ids) => (state.bulk = [...state.bulk, ...ids.filter((id) => !state.bulk.includes(id))]),
    setBulk: (ids) => (state.bulk = [...ids]),
    retryUnsent: () => log('retryUnsent'),
    discardFailed: () => log('discardFailed'),
    unsent: () => state.unsent,
    conflict: () => state.conflict,
    resolveConflict: (seq, choice) => log(`conflict:${choice}`, undefined, seq),
  });
  const ctx = (): InboxCommandContext => ({
    view: state.view,
    activeId: state.activeId,
    selectedId: state.opened.at(-1),
    overlay: state.overlay,
    orderedIds: () => order,
    directory: {
      inboxes: [{ id: 4, name: 'Email support', channel_type: 'Channel::Email' }],
      teams: [{ id: 1, name: 'billing', description: '', is_member: true }],
      labels: [{ id: 1, title: 'vip', description: '', color: '', show_on_sidebar: true }],
      agents: [{ id: 4, name: 'Priya Shah', available_name: 'Priya Shah', email: 'priya@acme.example', role: 'agent', availability_status: 'online' }],
    },
    setView: (patch) => (state.view = { ...state.view, ...patch }),
    setActive: (id) => (state.activeId = id),
    open: (id) => state.opened.push(id),
    closeConversation: () => undefined,
    focusComposer: (mode) => state.composer.push(mode),
    focusSearch: () => state.searchFocused++,
    focusList: () => undefined,
    setOverlay: (o) => (state.overlay = o),
    toggleContactPanel: () => undefined,
    density: 'comfortable',
    setDensity: (d) => log(`density:${d}`),
    triage: triage(),
    notifications: {
      settings: state.notifySettings,
      update: (change) => {
        state.notifySettings = change(state.notifySettings!);
        log('notifications');
      },
      now: () => state.now,
    },
    ...over,
  });
  return { state, ctx };
}
