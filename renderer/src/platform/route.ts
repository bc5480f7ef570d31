// The open conversation in the page's address (`#/conversations/324`): a reload keeps it open, web
// mode has a URL per conversation, and Back/Forward move between the conversations opened. Only
// routes are ever written here; web mode's launch secret (`#k=`) is taken out of the address by
// platform/bridge.ts before anything renders, so it never reaches a history entry.
import { useEffect } from 'react';
import { useUi } from '../state/ui';
import { whenIdle } from './idle';

const ROUTE = /^#\/conversations\/(\d{1,9})$/;

/** The conversation a fragment names, if it is a route. */
export function conversationFromHash(hash: string): number | undefined {
  const id = Number(ROUTE.exec(hash)?.[1]);
  return id > 0 ? id : undefined;
}

/** The fragment for a conversation ('' for none). */
export const hashFor = (id: number | undefined): string => (id === undefined ? '' : `#/conversations/${id}`);

/** Keeps the address and the open conversation together while the inbox is up. */
export function useConversationRoute(): void {
  useEffect(() => {
    const fromAddressNow = () => {
      const id = conversationFromHash(location.hash);
      const ui = useUi.getState();
      if (id !== undefined && id !== ui.selectedConversationId) ui.select(id);
      if (id === undefined && location.hash === '' && ui.selectedConversationId !== undefined) ui.select(undefined);
    };
    const write = (id: number | undefined) => {
      const next = hashFor(id);
      if (location.hash === next) return;
      history.pushState(null, '', next || location.pathname + location.search);
    };
    // Written once the page is next idle (the conversation and its messages shown), each in turn:
    // pushState waits on the browser process, a few milliseconds and on a busy machine tens, which
    // a click that opens a conversation waited for before anything rendered, and after its first
    // frame it still landed before the messages' (issue 14). Within half a second at the latest.
    let queued: (number | undefined)[] = [];
    let pending: (() => void) | undefined;
    const flush = () => {
      pending?.();
      pending = undefined;
      for (const id of queued.splice(0)) write(id);
    };
    const toAddress = (id: number | undefined) => {
      queued.push(id);
      // Closing is written at once: a reload before a deferred close would open the conversation
      // again, and opening marks it read, undoing a "mark unread" that closed it (found by chaos).
      if (id === undefined) flush();
      else pending ??= whenIdle(flush, { within: 500, otherwiseAfter: 0 });
    };
    const fromAddress = () => {
      // The address the agent went to (Back, Forward) is newer than any write still waiting.
      queued = [];
      fromAddressNow();
    };
    // A route in the address when the inbox comes up opens it; else the address follows the app.
    if (conversationFromHash(location.hash) !== undefined) fromAddressNow();
    else write(useUi.getState().selectedConversationId);
    const off = useUi.subscribe((s, prev) => {
      if (s.selectedConversationId !== prev.selectedConversationId) toAddress(s.selectedConversationId);
    });
    window.addEventListener('popstate', fromAddress);
    return () => {
      off();
      window.removeEventListener('popstate', fromAddress);
      flush();
    };
  }, []);
}
