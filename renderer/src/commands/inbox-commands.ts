// The inbox's commands: moving through the list, opening, focusing the composer and search,
// switching tabs, statuses, filters and sort; the triage group (triage-commands.ts) joins them in
// the same registry.
import type { Agent, Inbox, Label, Team } from '../../../shared/api/directory';
import type { ListView } from '../conversations/view';
import { sortOptions, statusOptions, tabOptions } from '../conversations/view';
import type { Density } from '../state/preferences';
import type { Overlay } from '../state/ui';
import type { ComposerMode } from '../db/schema';
import type { Command } from './registry';
import { CommandRegistry } from './registry';
import type { NotificationCommandContext } from './notification-commands';
import { registerNotificationCommands } from './notification-commands';
import type { TriageCommandContext } from './triage-commands';
import { registerTriageCommands } from './triage-commands';

/** What commands read and change. Built fresh for each key press or palette run. */
export interface InboxCommandContext {
  view: ListView;
  activeId: number | undefined;
  selectedId: number | undefined;
  overlay: Overlay;
  /** The list's ids in display order. */
  orderedIds(): readonly number[];
  directory: { inboxes: readonly Inbox[]; teams: readonly Team[]; labels: readonly Label[]; agents: readonly Agent[] };
  setView(patch: Partial<ListView>): void;
  setActive(id: number): void;
  open(id: number): void;
  closeConversation(): void;
  focusComposer(mode: ComposerMode): void;
  focusSearch(): void;
  focusList(): void;
  setOverlay(o: Overlay): void;
  toggleContactPanel(): void;
  /** Opens the contact panel's edit form for the open conversation's contact. */
  editContact(): void;
  density: Density;
  setDensity(d: Density): void;
  triage: TriageCommandContext;
  notifications: NotificationCommandContext;
}

type C = Command<InboxCommandContext>;

function step(ctx: InboxCommandContext, delta: number) {
  const ids = ctx.orderedIds();
  if (!ids.length) return;
  const at = ctx.activeId === undefined ? -1 : ids.indexOf(ctx.activeId);
  const next = at < 0 ? (delta > 0 ? 0 : ids.length - 1) : Math.min(ids.length - 1, Math.max(0, at + delta));
  ctx.setActive(ids[next]!);
  ctx.focusList();
}

const hasOpen = (ctx: InboxCommandContext) => ctx.selectedId !== undefined;

const navigation: C[] = [
  { id: 'list.next', title: 'Next conversation', group: 'List', keys: ['j', 'ArrowDown'], run: (ctx) => step(ctx, 1) },
  { id: 'list.previous', title: 'Previous conversation', group: 'List', keys: ['k', 'ArrowUp'], run: (ctx) => step(ctx, -1) },
  {
    id: 'list.open',
    title: 'Open the highlighted conversation',
    group: 'List',
    keys: ['Enter', 'o'],
    enabled: (ctx) => ctx.activeId !== undefined,
    run: (ctx) => ctx.open(ctx.activeId!),
  },
  { id: 'list.focus', title: 'Go to the conversation list', group: 'Navigation', keys: ['g'], run: (ctx) => ctx.focusList() },
  { id: 'conversation.reply', title: 'Reply', group: 'Conversation', keys: ['r'], enabled: hasOpen, run: (ctx) => ctx.focusComposer('reply') },
  { id: 'conversation.note', title: 'Write a private note', group: 'Conversation', keys: ['n'], enabled: hasOpen, run: (ctx) => ctx.focusComposer('note') },
  { id: 'conversation.contact', title: 'Show or hide contact details', group: 'Conversation', keys: ['i'], enabled: hasOpen, run: (ctx) => ctx.toggleContactPanel() },
  { id: 'conversation.editContact', title: 'Edit the contact', group: 'Conversation', keys: ['shift+i'], keywords: 'name email phone attribute customer details', enabled: hasOpen, run: (ctx) => ctx.editContact() },
  {
    id: 'conversation.close',
    title: 'Back to the list (or close, or clear the selection)',
    group: 'Conversation',
    keys: ['Escape'],
    paletteHidden: true,
    whileDialog: true,
    run: (ctx) => (ctx.overlay ? ctx.setOverlay(undefined) : ctx.triage.bulk.length ? ctx.triage.setBulk([]) : ctx.closeConversation()),
  },
  { id: 'search.focus', title: 'Search', group: 'Search', keys: ['/'], keywords: 'find', run: (ctx) => ctx.focusSearch() },
  { id: 'palette.open', title: 'Command palette', group: 'Help', keys: ['mod+k'], whileTyping: true, paletteHidden: true, run: (ctx) => ctx.setOverlay(ctx.overlay === 'palette' ? undefined : 'palette') },
  { id: 'shortcuts.show', title: 'Keyboard shortcuts', group: 'Help', keys: ['?'], keywords: 'help keys', run: (ctx) => ctx.setOverlay('shortcuts') },
  { id: 'waiting.settings', title: 'Waiting time colours', group: 'Help', keywords: 'settings wait waiting threshold colour color sla reply time', run: (ctx) => ctx.setOverlay('waiting') },
];

const tabs: C[] = tabOptions.map((t, i) => ({
  id: `tab.${t.value}`,
  title: `Go to ${t.label}`,
  group: 'Navigation',
  keys: [String(i + 1)],
  keywords: 'tab assignee',
  run: (ctx) => ctx.setView({ tab: t.value }),
}));

const statuses: C[] = statusOptions.map((s) => ({
  id: `status.${s.value}`,
  title: `Status: ${s.label}`,
  group: 'Filters',
  keywords: 'show filter',
  run: (ctx) => ctx.setView({ status: s.value }),
}));

const sorts: C[] = sortOptions.map((s) => ({
  id: `sort.${s.value}`,
  title: `Sort by ${s.label.toLowerCase()}`,
  group: 'Sort',
  keywords: 'order',
  run: (ctx) => ctx.setView({ sortBy: s.value }),
}));

const densities: C[] = (['comfortable', 'compact'] as const).map((d) => ({
  id: `density.${d}`,
  title: `List density: ${d}`,
  group: 'View',
  keywords: 'rows dense spacing compact comfortable',
  enabled: (ctx) => ctx.density !== d,
  run: (ctx) => ctx.setDensity(d),
}));

const clearFilters: C = {
  id: 'filters.clear',
  title: 'Clear inbox, team and label filters',
  group: 'Filters',
  keywords: 'reset remove',
  enabled: (ctx) => Boolean(ctx.view.inboxId || ctx.view.teamId || ctx.view.label),
  run: (ctx) => ctx.setView({ inboxId: undefined, teamId: undefined, label: undefined }),
};

/** One command per inbox, team and label the account has. */
function filterCommands(ctx: InboxCommandContext): C[] {
  return [
    ...ctx.directory.inboxes.map((i): C => ({ id: `filter.inbox.${i.id}`, title: `Inbox: ${i.name}`, group: 'Filters', keywords: 'filter', run: (c) => c.setView({ inboxId: i.id }) })),
    ...ctx.directory.teams.map((t): C => ({ id: `filter.team.${t.id}`, title: `Team: ${t.name}`, group: 'Filters', keywords: 'filter', run: (c) => c.setView({ teamId: t.id }) })),
    ...ctx.directory.labels.map((l): C => ({ id: `filter.label.${l.id}`, title: `Label: ${l.title}`, group: 'Filters', keywords: 'filter tag', run: (c) => c.setView({ label: l.title }) })),
  ];
}

/** "#123" or "123" in the palette: open that conversation. */
function openByNumber(_ctx: InboxCommandContext, query: string): C[] {
  const m = /^#?(\d{1,9})$/.exec(query.trim());
  if (!m) return [];
  const id = Number(m[1]);
  if (!id) return [];
  return [{ id: `open.${id}`, title: `Open conversation #${id}`, group: 'Navigation', keywords: `${id} #${id}`, run: (ctx) => ctx.open(id) }];
}

export function createInboxCommands(): CommandRegistry<InboxCommandContext> {
  const registry = new CommandRegistry<InboxCommandContext>({ dialogUp: (ctx) => ctx.overlay !== undefined })
    .register(...navigation, ...tabs, ...statuses, ...sorts, ...densities, clearFilters)
    .provide(openByNumber)
    .provide(filterCommands);
  return registerNotificationCommands(registerTriageCommands(registry));
}
