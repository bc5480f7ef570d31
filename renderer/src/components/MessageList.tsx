// A conversation's messages, virtualized, following the thread by the rules in
// conversation/follow.ts: it opens at the newest message (or at the "New" separator when the unread
// messages fill more than the pane, or at a search hit), stays at the bottom while the agent is
// there, counts what arrives while they are scrolled up ("N new messages ↓"), and loads older
// pages as they scroll up. The virtualizer's end anchoring (anchorTo: 'end') keeps the first
// visible message where it was when older messages are prepended, so the position never jumps.
import { measureElement as measureFromLayout, useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Message } from '../../../shared/api/records';
import { isLocalMessage, markerOf } from '../model/intent';
import type { HistoryGap } from '../db/schema';
import type { FollowState, ThreadChange } from '../conversation/follow';
import { follow, initialFollow, pillText } from '../conversation/follow';
import { heightAt, keepHeights, knownHeight } from '../conversation/thread-heights';
import { threadItems } from '../conversation/thread-items';
import type { ThreadItem } from '../conversation/thread-items';
import { observeRememberedRect, rememberedViewport } from '../state/viewports';
import { MessageBubble } from './MessageBubble';
import type { UnsentInfo } from './unsent';

/** How close to the top (px) the agent must scroll before the next older page is asked for. */
const LOAD_AHEAD_PX = 600;
/** Room above the first message for the "Load older messages" button, so it never covers text. */
const TOP_ROOM_PX = 44;

/**
 * The virtualizer renders the list again on every scroll and size measurement; a bubble whose
 * message and state did not change is not rendered again (on a switch this was a third of the
 * frames' script time).
 */
const Bubble = memo(MessageBubble);

/** The messages' scroller measured, each size remembered for the next conversation opened (state/viewports.ts). */
const observeThreadRect = observeRememberedRect('thread');

/** What changed between two renders of the held messages, for the follow rules. */
function changeOf(prev: readonly Message[], next: readonly Message[]): ThreadChange | undefined {
  if (prev === next) return undefined;
  const before = new Set(prev.map((m) => m.id));
  const newestBefore = Math.max(0, ...prev.filter((m) => !isLocalMessage(m)).map((m) => m.id));
  const ownMarkers = new Set(prev.filter(isLocalMessage).map(markerOf).filter(Boolean));
  const added = next.filter((m) => !before.has(m.id));
  const newer = added.filter((m) => isLocalMessage(m) || m.id > newestBefore);
  if (newer.length) {
    // Ours: still local, or the service's copy of one that was local here (the send's echo).
    const own = newer.some((m) => isLocalMessage(m) || ownMarkers.has(markerOf(m)));
    const others = newer.filter((m) => !isLocalMessage(m) && !ownMarkers.has(markerOf(m)) && m.message_type !== 2).length;
    return { kind: 'appended', others, own };
  }
  return added.length ? { kind: 'prepended' } : undefined;
}

export function MessageList(props: {
  messages: readonly Message[];
  gaps: readonly HistoryGap[];
  hasOlder: boolean;
  loadingOlder: boolean;
  /** The last try to load older messages could not reach the service: no more tries on their own, and the pane says why. */
  olderUnavailable?: boolean;
  onLoadOlder(): void;
  /** Fills a gap left by a jump, a page at a time from its older side. */
  onFillGap?(gap: HistoryGap): void;
  /** The first message unread when the conversation opened: the "New" separator goes above it. */
  newFrom?: number | undefined;
  /**
   * Where the separator goes is not known yet (what was unread, or the page that places it, is on
   * its way): the view does not take its start until it is, else it would settle at the bottom
   * and the separator arrive above, unseen.
   */
  newFromPending?: boolean;
  /** A message to show and highlight (a search hit); `n` makes a repeat of the same one distinct. */
  target?: { messageId: number; n: number } | undefined;
  /** Messages not confirmed yet, by client id (from the outbox). */
  unsent?: ReadonlyMap<string, UnsentInfo>;
  onRetry?(seq: number): void;
  onDiscard?(seq: number): void;
}) {
  const { messages, gaps, hasOlder, loadingOlder, onLoadOlder, unsent, olderUnavailable = false, newFrom, newFromPending = false, target } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const [initialRect] = useState(() => rememberedViewport('thread'));
  const items = useMemo(() => threadItems(messages, gaps, hasOlder, { newFrom }), [messages, gaps, hasOlder, newFrom]);
  const getItemKey = useCallback((i: number) => items[i]?.key ?? i, [items]);
  // We do not use the React Compiler; the virtualizer is meant to be read during render.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    // Heights from the last time this thread was open (conversation/thread-heights.ts), else a guess.
    estimateSize: (i) => knownHeight(String(getItemKey(i))) ?? 96,
    // An item mounting is measured on the spot, which reads the layout in the middle of the commit;
    // the positions the virtualizer then writes make the next read (its own, of the scroller) lay
    // the thread out again: two layouts in a switch's task (issue 14, a profile: 3.2 and 3.3 ms).
    // An item laid out before at this very width takes the height it had instead. Its
    // ResizeObserver still reports the real one after the frame's layout: one changed since (an
    // edit) is placed right from the next frame, where before it was in the first.
    measureElement: (el, entry, instance) => {
      if (!entry) {
        const kept = heightAt(String(getItemKey(instance.indexFromElement(el))), instance.scrollRect?.width ?? 0);
        if (kept !== undefined) return kept;
      }
      return measureFromLayout(el, entry, instance);
    },
    getItemKey,
    anchorTo: 'end',
    paddingStart: TOP_ROOM_PX,
    overscan: 6,
    // It opens at the newest message: the first render with the messages is of the tail (the
    // offset clamps to the end), not of the oldest ones the scroll to the end then replaces.
    initialOffset: Number.MAX_SAFE_INTEGER,
    // The size the last conversation's messages had: the first render has the tail in sight.
    initialRect,
    observeElementRect: observeThreadRect,
  });

  // An item measured above the top of the view moves what is below it: the scroll follows, so the
  // view does not. The virtualizer's own rule (the same, below) read an item's start from a table
  // that, within one batch of first measurements, still lagged the sizes measured before it: a
  // prepended page's message straddling the top of the view, below a day divider, was taken to
  // start in view, and the view jumped by its estimate's error (27 px in the e2e test
  // history-scroll.spec.ts, whenever the demo's day changed there). The item handed here has its
  // start brought up to date.
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = (item, _delta, instance) => {
    // Read by the library just before it asks (resizeItem), so set.
    const offset = instance.scrollOffset ?? 0;
    // First measure: any item starting above the view; again (an item growing, an edit): only one
    // wholly above it, and not while scrolling up (the library's reasons, virtual-core #1218).
    if (!instance.itemSizeCache.has(item.key)) return item.start < offset;
    return item.end <= offset && instance.scrollDirection !== 'backward';
  };
  // Closing: what was measured is kept for the next time this thread opens.
  useEffect(() => () => keepHeights(virtualizer.itemSizeCache, virtualizer.scrollRect?.width ?? 0), [virtualizer]);

  const followState = useRef<FollowState>(initialFollow);
  const [shown, setShown] = useState<FollowState>(initialFollow);
  const apply = useCallback(
    (change: ThreadChange) => {
      const d = follow(followState.current, change);
      followState.current = d.state;
      setShown((s) => (s.atBottom === d.state.atBottom && s.unseen === d.state.unseen ? s : d.state));
      if (d.toBottom) virtualizer.scrollToEnd();
    },
    [virtualizer],
  );

  // Where the view is taken, in order: to a search hit once it is held; at the start, to the "New"
  // separator (at the top when the unread messages do not fit below it; the scroll clamps to the
  // bottom when they do) or the newest message; after that, each change of the held messages or
  // of the content's height goes through the follow rules.
  const started = useRef(false);
  const [highlighted, setHighlighted] = useState<number>();
  // After a jump, where the view landed decides whether it is at the bottom: a short thread, or a
  // scroll clamped to where it already was, fires no scroll event to say so.
  const settle = useCallback(() => {
    requestAnimationFrame(() => {
      const el = scroller.current;
      if (el) apply({ kind: 'scrolled', distanceFromBottom: el.scrollHeight - el.scrollTop - el.clientHeight });
    });
  }, [apply]);
  const handledTarget = useRef<number>(undefined);
  const previous = useRef(messages);
  const total = virtualizer.getTotalSize();
  const previousTotal = useRef(total);
  useLayoutEffect(() => {
    const change = changeOf(previous.current, messages);
    previous.current = messages;
    const grew = total !== previousTotal.current;
    previousTotal.current = total;
    const hit = target && handledTarget.current !== target.n ? items.findIndex((i) => i.kind === 'message' && i.message.id === target.messageId) : -1;
    if (target && hit >= 0) {
      handledTarget.current = target.n;
      started.current = true;
      apply({ kind: 'jumped' });
      virtualizer.scrollToIndex(hit, { align: 'center' });
      setHighlighted(target.messageId);
      settle();
      return;
    }
    if (!started.current) {
      if (!items.length || newFromPending) return;
      started.current = true;
      const sep = items.findIndex((i) => i.kind === 'new');
      if (sep >= 0) {
        apply({ kind: 'jumped' });
        virtualizer.scrollToIndex(sep, { align: 'start' });
        settle();
      } else virtualizer.scrollToEnd();
      return;
    }
    if (change) apply(change);
    else if (grew) apply({ kind: 'resized' });
  }, [items, messages, total, target, newFromPending, virtualizer, apply, settle]);

  // The highlighted hit takes focus once it is on screen (the render after the scroll), so reading
  // and the keyboard continue from it. Once: scrolled away and back, it does not take focus again.
  const focusPending = useRef<number>(undefined);
  useEffect(() => {
    focusPending.current = highlighted;
  }, [highlighted]);
  useEffect(() => {
    if (focusPending.current === undefined) return;
    const el = scroller.current?.querySelector<HTMLElement>(`article[data-message-id="${focusPending.current}"]`);
    if (!el) return;
    focusPending.current = undefined;
    el.focus({ preventScroll: true });
  });

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    apply({ kind: 'scrolled', distanceFromBottom: el.scrollHeight - el.scrollTop - el.clientHeight });
    if (hasOlder && !loadingOlder && !olderUnavailable && started.current && el.scrollTop < LOAD_AHEAD_PX) onLoadOlder();
  }, [apply, hasOlder, loadingOlder, olderUnavailable, onLoadOlder]);

  // A short history that does not fill the pane cannot be scrolled: ask for more right away.
  useEffect(() => {
    const el = scroller.current;
    if (el && hasOlder && !loadingOlder && !olderUnavailable && started.current && el.scrollTop < LOAD_AHEAD_PX) onLoadOlder();
  }, [items.length, hasOlder, loadingOlder, olderUnavailable, onLoadOlder]);

  const pill = pillText(shown);
  const toNewest = () => {
    virtualizer.scrollToEnd();
    scroller.current?.focus({ preventScroll: true });
  };
  const renderItem = (item: ThreadItem) => {
    switch (item.kind) {
      case 'start':
        return (
          <p className="history-start" data-testid="history-start">
            Beginning of the conversation
          </p>
        );
      case 'gap':
        return <GapRow gap={item.gap} onFill={props.onFillGap} />;
      case 'day':
        return (
          <p className="day-divider" data-testid="day-divider">
            <time dateTime={new Date(item.at * 1000).toISOString().slice(0, 10)}>{item.label}</time>
          </p>
        );
      case 'new':
        return (
          <p className="new-divider" data-testid="new-divider">
            <span>New</span>
          </p>
        );
      case 'message':
        return (
          <Bubble
            message={item.message}
            highlighted={item.message.id === highlighted}
            {...(isLocalMessage(item.message) ? { unsent: unsent?.get(markerOf(item.message) ?? '') ?? { seq: 0, state: 'sending', attempts: 0, uncertain: false } } : {})}
            {...(props.onRetry ? { onRetry: props.onRetry } : {})}
            {...(props.onDiscard ? { onDiscard: props.onDiscard } : {})}
          />
        );
    }
  };

  return (
    <div className="message-pane">
      <div
        ref={scroller}
        className="messages"
        role="log"
        aria-label="Messages"
        aria-busy={loadingOlder}
        data-has-older={hasOlder}
        data-at-bottom={shown.atBottom}
        data-virtual-scroller=""
        tabIndex={0}
        onScroll={onScroll}
      >
        <div style={{ height: total, position: 'relative' }}>
          {hasOlder && messages.length > 0 && (
            <button type="button" className="load-older" onClick={onLoadOlder} disabled={loadingOlder}>
              {loadingOlder ? 'Loading older messages…' : olderUnavailable ? 'Older messages are not on this computer (offline). Try again' : 'Load older messages'}
            </button>
          )}
          {virtualizer.getVirtualItems().map((v) => (
            <div key={v.key} data-index={v.index} ref={virtualizer.measureElement} className="message-slot" style={{ transform: `translateY(${v.start}px)` }}>
              {renderItem(items[v.index]!)}
            </div>
          ))}
        </div>
      </div>
      <div className="new-messages" aria-live="polite">
        {pill && (
          <button type="button" className="new-messages-pill" onClick={toNewest}>
            {pill} <span aria-hidden="true">↓</span>
          </button>
        )}
      </div>
    </div>
  );
}

/**
 * A hole in the held history. Others close by themselves; a jump's hole loads a page from its
 * older side when it comes into the lower half of the view (the agent reading down from the hit,
 * so the new page lands below what they read), and by its button from anywhere.
 */
function GapRow(props: { gap: HistoryGap; onFill?: ((gap: HistoryGap) => void) | undefined }) {
  const { gap, onFill } = props;
  const row = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = row.current;
    if (!gap.lazy || !onFill || !el || typeof IntersectionObserver !== 'function') return;
    const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && onFill(gap), { root: el.closest('[role="log"]'), rootMargin: '-50% 0px 0px 0px' });
    seen.observe(el);
    return () => seen.disconnect();
  }, [gap, onFill]);
  return (
    <div ref={row} className="history-gap" role="note">
      {gap.lazy && onFill ? (
        <button type="button" className="link-button" onClick={() => onFill(gap)}>
          Load the messages in between
        </button>
      ) : (
        'Some messages here are still loading.'
      )}
    </div>
  );
}
