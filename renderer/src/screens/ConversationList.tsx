// The conversation list: rendered from the cache at once, then revalidated page by page
// (`page` until an empty page, as the spec signals the end of a list).
import { useQuery } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import { saveConversations } from '../db/sync';
import { callOrThrow, useSession } from '../platform/session';
import { useUi } from '../state/ui';
import { relativeTime } from '../components/time';
import { SyncBanner } from '../components/SyncBanner';

const MAX_PAGES = 400;

export function ConversationList() {
  const { bridge, db } = useSession();
  const selected = useUi((s) => s.selectedConversationId);
  const select = useUi((s) => s.select);

  const rows = useLiveQuery(async () => {
    const open = await db.conversations.where('status').equals('open').toArray();
    return open.sort((a, b) => b.lastActivityAt - a.lastActivityAt);
  }, [db]);

  const revalidate = useQuery({
    queryKey: ['conversations', 'open'],
    queryFn: async () => {
      let total = 0;
      for (let page = 1; page <= MAX_PAGES; page++) {
        const list = await callOrThrow(bridge, 'conversations.list', { page, status: 'open', assigneeType: 'all' });
        if (list.data.payload.length === 0) break;
        total += list.data.payload.length;
        await saveConversations(db, list.data.payload);
      }
      return total;
    },
  });

  return (
    <nav className="conversation-list" aria-label="Conversations">
      <header className="pane-header">
        <h2>Open conversations</h2>
        <span className="count" aria-label={`${rows?.length ?? 0} conversations`}>
          {rows?.length ?? ''}
        </span>
      </header>
      <SyncBanner error={revalidate.error} fetching={revalidate.isFetching} />
      {rows && rows.length === 0 && !revalidate.isFetching && <p className="empty">No open conversations.</p>}
      <ul role="listbox" aria-label="Open conversations">
        {rows?.map((c) => (
          <li
            key={c.id}
            role="option"
            aria-selected={c.id === selected}
            tabIndex={c.id === selected ? 0 : -1}
            className={c.id === selected ? 'row selected' : 'row'}
            onClick={() => select(c.id)}
            onKeyDown={(e) => e.key === 'Enter' && select(c.id)}
          >
            <div className="row-top">
              <span className="contact">{c.contactName}</span>
              <time>{relativeTime(c.lastActivityAt)}</time>
            </div>
            <div className="row-bottom">
              <span className="preview">{c.preview}</span>
              {c.unreadCount > 0 && (
                <span className="unread" aria-label={`${c.unreadCount} unread`}>
                  {c.unreadCount >= 10 ? '10+' : c.unreadCount}
                </span>
              )}
            </div>
          </li>
        ))}
      </ul>
    </nav>
  );
}
