// A conversation's messages, virtualized: starts at the newest message, follows new ones only
// when the agent is already at the end, and loads older pages as the agent scrolls up. The
// virtualizer's end anchoring (anchorTo: 'end') keeps the first visible message exactly where it
// was when older messages are prepended, so the position never jumps.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import type { Message } from '../../../shared/api/records';
import { isLocalMessage, markerOf } from '../model/intent';
import type { HistoryGap } from '../db/schema';
import { MessageBubble } from './MessageBubble';
import type { UnsentInfo } from './unsent';

type Item = { key: string; kind: 'start' } | { key: string; kind: 'gap'; gap: HistoryGap } | { key: string; kind: 'message'; message: Message };

/** How close to the top (px) the agent must scroll before the next older page is asked for. */
const LOAD_AHEAD_PX = 600;

function itemsOf(messages: readonly Message[], gaps: readonly HistoryGap[], hasOlder: boolean): Item[] {
  const items: Item[] = [];
  // The start marker exists only once nothing older remains, so it never sits above a prepend.
  if (!hasOlder && messages.length) items.push({ key: 'start', kind: 'start' });
  let g = 0;
  const sortedGaps = [...gaps].sort((a, b) => a.after - b.after);
  for (const m of messages) {
    while (g < sortedGaps.length && sortedGaps[g]!.before <= m.id) {
      if (sortedGaps[g]!.after > 0) items.push({ key: `gap-${sortedGaps[g]!.after}`, kind: 'gap', gap: sortedGaps[g]! });
      g++;
    }
    items.push({ key: `m${m.id}`, kind: 'message', message: m });
  }
  return items;
}

export function MessageList(props: {
  messages: readonly Message[];
  gaps: readonly HistoryGap[];
  hasOlder: boolean;
  loadingOlder: boolean;
  /** The last try to load older messages could not reach the service: no more tries on their own, and the pane says why. */
  olderUnavailable?: boolean;
  onLoadOlder(): void;
  /** Messages not confirmed yet, by client id (from the outbox). */
  unsent?: ReadonlyMap<string, UnsentInfo>;
  onRetry?(seq: number): void;
  onDiscard?(seq: number): void;
}) {
  const { messages, gaps, hasOlder, loadingOlder, onLoadOlder, unsent, olderUnavailable = false } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const items = useMemo(() => itemsOf(messages, gaps, hasOlder), [messages, gaps, hasOlder]);
  const getItemKey = useCallback((i: number) => items[i]?.key ?? i, [items]);
  // We do not use the React Compiler; the virtualizer is meant to be read during render.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 96,
    getItemKey,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: 80,
    overscan: 6,
  });

  // Start at the newest message, once the first messages are there.
  const started = useRef(false);
  useLayoutEffect(() => {
    if (!started.current && items.length) {
      started.current = true;
      virtualizer.scrollToEnd();
    }
  }, [items.length, virtualizer]);

  // The agent's own new message comes into view, wherever they had scrolled to (the virtualizer
  // follows appends by itself only at the end). Its state below it (sending, not sent) too.
  const last = messages.at(-1);
  const newestOwn = last && isLocalMessage(last) ? `${last.id}:${unsent?.get(markerOf(last) ?? '')?.state ?? ''}` : undefined;
  const shownOwn = useRef(newestOwn);
  useLayoutEffect(() => {
    if (newestOwn !== undefined && newestOwn !== shownOwn.current && started.current) virtualizer.scrollToEnd();
    shownOwn.current = newestOwn;
  }, [newestOwn, virtualizer]);

  const maybeLoadOlder = useCallback(() => {
    const el = scroller.current;
    if (!el || !hasOlder || loadingOlder || olderUnavailable || !started.current) return;
    if (el.scrollTop < LOAD_AHEAD_PX) onLoadOlder();
  }, [hasOlder, loadingOlder, olderUnavailable, onLoadOlder]);

  // A short history that does not fill the pane cannot be scrolled: ask for more right away.
  useEffect(() => {
    maybeLoadOlder();
  }, [items.length, maybeLoadOlder]);

  return (
    <div className="message-pane">
      {hasOlder && messages.length > 0 && (
        <button type="button" className="load-older" onClick={onLoadOlder} disabled={loadingOlder}>
          {loadingOlder ? 'Loading older messages…' : olderUnavailable ? 'Older messages are not on this computer (offline). Try again' : 'Load older messages'}
        </button>
      )}
      <div
        ref={scroller}
        className="messages"
        role="log"
        aria-label="Messages"
        aria-busy={loadingOlder}
        data-has-older={hasOlder}
        data-virtual-scroller=""
        tabIndex={0}
        onScroll={maybeLoadOlder}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const item = items[v.index]!;
            return (
              <div key={v.key} data-index={v.index} ref={virtualizer.measureElement} className="message-slot" style={{ transform: `translateY(${v.start}px)` }}>
                {item.kind === 'start' ? (
                  <p className="history-start" data-testid="history-start">
                    Beginning of the conversation
                  </p>
                ) : item.kind === 'gap' ? (
                  <p className="history-gap" role="note">
                    Some messages here are still loading.
                  </p>
                ) : (
                  <MessageBubble
                    message={item.message}
                    {...(isLocalMessage(item.message) ? { unsent: unsent?.get(markerOf(item.message) ?? '') ?? { seq: 0, state: 'sending', attempts: 0, uncertain: false } } : {})}
                    {...(props.onRetry ? { onRetry: props.onRetry } : {})}
                    {...(props.onDiscard ? { onDiscard: props.onDiscard } : {})}
                  />
                )}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
