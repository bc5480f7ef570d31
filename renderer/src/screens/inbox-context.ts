// The command context the inbox hands to every shortcut and palette run: UI state from the store,
// the list's order, the directory, and the triage actions over the write path (actions/).
import { useCallback } from 'react';
import type { RefObject } from 'react';
import type { SnoozePreset } from '../actions/snooze';
import { snoozeUntil, toEpochSeconds } from '../actions/snooze';
import * as triage from '../actions/agent-actions';
import type { InboxCommandContext } from '../commands/inbox-commands';
import type { NotificationCommandContext } from '../commands/notification-commands';
import type { ActionContext } from '../actions/agent-actions';
import type { ListOrder } from '../conversations/list-order';
import type { CachedConversation } from '../db/schema';
import type { Directory } from '../directory/use-directory';
import { usePreferences } from '../state/preferences';
import { useUi } from '../state/ui';

/** The open conversation's messages still on their way (`waiting`) or refused (`failed`), by outbox seq. */
export interface UnsentSeqs {
  waiting: number[];
  failed: number[];
}

/** Actions run in the background; a failure to queue (the cache refused the write) is said aloud. */
const queue = (p: Promise<unknown>) => void p.catch(() => useUi.getState().notify('That change could not be saved on this computer. Nothing was sent.'));

export function useInboxContext(opts: {
  /** The session's actions (client.actions.context): cache, agent, and the sender to wake. */
  actions: ActionContext;
  order: ListOrder;
  directoryRef: RefObject<Directory>;
  /** The open conversation's unsent messages (outbox seqs), kept current by the inbox. */
  unsentRef: RefObject<UnsentSeqs>;
  /** Cached rows of the picked and the open conversations (a row in the list is read from `order`). */
  rowsRef: RefObject<ReadonlyMap<number, CachedConversation>>;
  /** The oldest conflict waiting for the agent (outbox seq). */
  conflictRef: RefObject<number | undefined>;
  /** The session's notification settings as last read, and how to change them. */
  notifyRef: RefObject<Omit<NotificationCommandContext, 'now'> | undefined>;
}): () => InboxCommandContext {
  const { actions, order, directoryRef, unsentRef, rowsRef, conflictRef, notifyRef } = opts;
  return useCallback((): InboxCommandContext => {
    const ui = useUi.getState();
    const open = (id: number) => {
      ui.setSearchQuery('');
      ui.select(id);
    };
    const focusList = () => {
      ui.showPane('list');
      ui.setSearchQuery('');
      // Next frame (the list may only now be shown), unless focus moved meanwhile: a picker opened by
      // the key after this one must keep it (a late frame used to pull focus back to the list).
      const before = document.activeElement;
      requestAnimationFrame(() => {
        if (document.activeElement === before || document.activeElement === document.body) document.getElementById('conversation-listbox')?.focus();
      });
    };
    // The selection; else the row the agent moved the cursor to; else the open conversation.
    const targets = (): number[] => {
      if (ui.bulkSelection.length) return [...ui.bulkSelection];
      const cursor = ui.activeConversationId;
      const id = ui.cursorLeads && cursor !== undefined ? cursor : (ui.selectedConversationId ?? cursor);
      return id === undefined ? [] : [id];
    };
    return {
      view: ui.view,
      activeId: ui.activeConversationId,
      selectedId: ui.selectedConversationId,
      overlay: ui.overlay,
      orderedIds: () => order.current,
      directory: directoryRef.current!,
      setView: (patch) => ui.setView(patch),
      setActive: (id) => ui.moveCursor(id),
      open,
      closeConversation: () => {
        ui.showPane('list');
        document.getElementById('conversation-listbox')?.focus();
      },
      focusComposer: (mode) => ui.focusComposer(mode),
      focusSearch: () => ui.focusSearch(),
      focusList,
      setOverlay: (o) => ui.setOverlay(o),
      toggleContactPanel: () => ui.toggleContact(),
      editContact: () => ui.editContact(),
      density: usePreferences.getState().density,
      setDensity: (d) => usePreferences.getState().setDensity(d),
      notifications: {
        settings: notifyRef.current?.settings,
        update: (change) => notifyRef.current && queue(Promise.resolve(notifyRef.current.update(change))),
        now: () => Date.now(),
      },
      triage: {
        targets,
        bulk: ui.bulkSelection,
        me: actions.me,
        targetLabels: () => [...new Set(targets().flatMap((id) => (order.row(id) ?? rowsRef.current?.get(id))?.labels ?? []))].sort(),
        setStatus: (ids, status) => queue(triage.setStatus(actions, ids, status)),
        snooze: (ids, preset: SnoozePreset) => {
          const until = snoozeUntil(preset, new Date());
          queue(triage.setStatus(actions, ids, 'snoozed', until ? toEpochSeconds(until) : null));
        },
        setPriority: (ids, p) => queue(triage.setPriority(actions, ids, p)),
        assign: (ids, agent) => queue(triage.assign(actions, ids, agent)),
        assignTeam: (ids, team) => queue(triage.assignTeam(actions, ids, team)),
        changeLabels: (ids, change) => queue(triage.changeLabels(actions, ids, change)),
        markRead: (ids) => queue(triage.markRead(actions, ids)),
        markUnread: (ids) => {
          queue(triage.markUnread(actions, ids));
          // An open conversation would be read again at once: leave it for the list.
          const openId = ui.selectedConversationId;
          if (openId !== undefined && ids.includes(openId)) {
            ui.select(undefined);
            ui.setActive(openId);
            focusList();
          }
        },
        resolveAndNext: () => {
          const id = ui.selectedConversationId;
          if (id === undefined) return;
          // The next one in the list as the agent sees it now, before the resolved row leaves it.
          const ids = order.current;
          const at = ids.indexOf(id);
          const next = at >= 0 ? (ids[at + 1] ?? ids[at - 1]) : ids.find((x) => x !== id);
          queue(triage.setStatus(actions, [id], 'resolved'));
          if (next !== undefined) open(next);
          else {
            ui.select(undefined);
            focusList();
          }
        },
        openPicker: (kind, ids) => ui.openPicker(kind, ids),
        toggleBulk: (id) => ui.toggleBulk(id),
        addToBulk: (ids) => ui.addToBulk(ids),
        setBulk: (ids) => ui.setBulk(ids),
        unsent: () => ({ waiting: unsentRef.current?.waiting.length ?? 0, failed: unsentRef.current?.failed.length ?? 0 }),
        retryUnsent: () => {
          for (const seq of [...(unsentRef.current?.failed ?? []), ...(unsentRef.current?.waiting ?? [])]) queue(triage.retryMessage(actions, seq));
        },
        conflict: () => conflictRef.current ?? undefined,
        resolveConflict: (seq, choice) => queue(triage.resolveConflict(actions, seq, choice)),
        discardFailed: () => {
          for (const seq of unsentRef.current?.failed ?? []) queue(triage.discardMessage(actions.db, seq));
        },
      },
    };
  }, [actions, order, directoryRef, unsentRef, rowsRef, conflictRef, notifyRef]);
}

