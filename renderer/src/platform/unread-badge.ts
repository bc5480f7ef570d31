// Reports the unread count of open conversations (from the cache) to main, which shows it on the
// dock/taskbar badge or the tray; and shows it in the page itself: the title ("(3) Agent Inbox",
// which the desktop window title follows) and the favicon (a count on the icon: web mode's tab).
// Only when it changes; 0 when the session goes away.
import { useLiveQueryAfterFirstRows } from '../db/live-query-after-first-rows';
import { useEffect } from 'react';
import { useSession } from './session';

const TITLE = 'Agent Inbox';

/** The page's own icon, index.html's (the app icon as a PNG), kept before the count first changes it. */
let pageIcon: string | undefined;

const attribute = (text: string) => text.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page's icon (`icon`, a data: URL) with the count on it, in a red badge: an SVG, nothing to
 * fetch (the CSP allows data: images). With no count, the page's icon itself, as index.html has it:
 * an unchanged icon is not fetched and drawn again, and the app's start draws none (index.html).
 */
export function faviconFor(count: number, icon: string): string {
  if (count <= 0) return icon;
  const picture = icon ? `<image href="${attribute(icon)}" width="64" height="64"/>` : '';
  const badge = `<circle cx="46" cy="18" r="17" fill="#d92d20"/><text x="46" y="25" font-family="sans-serif" font-size="${count > 99 ? 15 : 20}" font-weight="700" text-anchor="middle" fill="#fff">${count > 99 ? '99+' : count}</text>`;
  return `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${picture}${badge}</svg>`)}`;
}

function showInPage(count: number) {
  document.title = count > 0 ? `(${count > 999 ? '999+' : count}) ${TITLE}` : TITLE;
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.append(link);
  }
  pageIcon ??= link.getAttribute('href') ?? '';
  const href = faviconFor(count, pageIcon);
  if ((link.getAttribute('href') ?? '') === href) return;
  if (!href) return link.removeAttribute('href');
  link.type = /^data:([^;,]+)/.exec(href)?.[1] ?? '';
  link.href = href;
}

/** The reference service's cap on a conversation's unread count. */
const UNREAD_CAP = 10;

export function useUnreadBadge() {
  const { bridge, db } = useSession();
  // From the [status+unreadCount] index, without reading a row: how many open conversations have
  // each unread count (the service caps it at 10), and the rows only of any past that (none, normally).
  // Its keys would be a cursor step per conversation, rows a read of every one.
  const unread = useLiveQueryAfterFirstRows(async () => {
    const index = () => db.conversations.where('[status+unreadCount]');
    const counts = await Promise.all(Array.from({ length: UNREAD_CAP }, (_, i) => index().equals(['open', i + 1]).count()));
    const beyond = await index().between(['open', UNREAD_CAP + 1], ['open', Infinity]).toArray();
    return counts.reduce((sum, n, i) => sum + n * (i + 1), 0) + beyond.reduce((sum, c) => sum + c.unreadCount, 0);
  }, [db]);
  useEffect(() => {
    if (unread === undefined) return;
    void bridge.call('app.setUnreadCount', { count: Math.min(unread, 1_000_000) });
    showInPage(unread);
  }, [bridge, unread]);
  useEffect(
    () => () => {
      void bridge.call('app.setUnreadCount', { count: 0 });
      showInPage(0);
    },
    [bridge],
  );
}
