// One row of the conversation list: the contact's avatar (initials, or their picture fetched by
// main), contact, how long the contact has waited, last activity,
// preview (or who is typing there), unread count, and chips for inbox, assignee, team, priority and
// labels. Fixed height per density (the agent's preference), so 10,000 rows virtualize cheaply; the
// heights fit the content exactly (styles.css). The keyboard cursor is `aria-selected`; a bulk pick
// is `aria-checked` (with its tick).
import { memo } from 'react';
import type { CachedConversation } from '../db/schema';
import { teamLabel } from '../directory/team-label';
import type { Directory } from '../directory/use-directory';
import { Avatar } from './Avatar';
import { relativeTime } from './time';
import { RowTyping } from './TypingIndicator';
import { UntrustedText } from './UntrustedText';
import { WaitingChip } from './WaitingChip';

import type { Density } from '../state/preferences';

/** Row heights (px) per density: three lines, or two (the preview beside the chips). */
export const ROW_HEIGHTS: Record<Density, number> = { comfortable: 67, compact: 47 };

/**
 * Memoized: a list render (every key in triage) re-renders only the rows whose props changed. A row
 * leaving the list moves every row under it and changes the list's size, so each row's place
 * (position, aria-posinset, aria-setsize) is its own small shell around a body memoized on what it
 * shows: resolving a row re-rendered all 19 rows on screen with their avatars, chips and texts
 * (about 170 components in the key's task); now the shells alone.
 */
export const ConversationRow = memo(function ConversationRow(props: {
  c: CachedConversation;
  directory: Directory;
  showStatus: boolean;
  active: boolean;
  open: boolean;
  /** Picked for a bulk action (x, Shift+J/K). */
  checked: boolean;
  /** Whether a bulk selection exists (rows then show their tick). */
  selecting: boolean;
  index: number;
  count: number;
  onOpen(id: number): void;
  /** The pointer went down on it: it is about to open (its read can start). */
  onPress?(id: number): void;
  start: number;
  height: number;
}) {
  const { c } = props;
  return (
    <div
      id={`conversation-row-${c.id}`}
      role="option"
      aria-selected={props.active}
      aria-checked={props.selecting ? props.checked : undefined}
      aria-current={props.open ? 'true' : undefined}
      aria-setsize={props.count}
      aria-posinset={props.index + 1}
      data-conversation-id={c.id}
      className={`row${props.active ? ' active' : ''}${props.open ? ' open' : ''}${props.checked ? ' checked' : ''}${c.unreadCount > 0 ? ' unread-row' : ''}`}
      style={{ height: props.height, transform: `translateY(${props.start}px)` }}
      onPointerDown={(e) => e.button === 0 && props.onPress?.(c.id)}
      onClick={() => props.onOpen(c.id)}
    >
      <RowBody c={c} directory={props.directory} showStatus={props.showStatus} selecting={props.selecting} checked={props.checked} />
    </div>
  );
});

/** What a row shows: the same whatever its place in the list. */
const RowBody = memo(function RowBody(props: { c: CachedConversation; directory: Directory; showStatus: boolean; selecting: boolean; checked: boolean }) {
  const { c, directory } = props;
  const inbox = directory.inboxes.find((i) => i.id === c.inboxId)?.name;
  const team = teamLabel(c.teamId, directory.teams);
  return (
    <>
      {/* Decorative: the contact's name is the row's own text. */}
      <Avatar name={c.contactName} contactId={c.contactId} hasPicture={c.contactPicture} size="row" />
      <div className="row-top">
        {props.selecting && (
          <span className="tick" aria-hidden="true">
            {props.checked ? '☑' : '☐'}
          </span>
        )}
        <span className="contact">
          <UntrustedText text={c.contactName} />
        </span>
        <span className="row-id">#{c.id}</span>
        <WaitingChip c={c} />
        <time dateTime={new Date(c.lastActivityAt * 1000).toISOString()}>{relativeTime(c.lastActivityAt)}</time>
      </div>
      <div className="row-middle">
        <RowTyping conversationId={c.id} />
        <span className="preview">{c.preview ? <UntrustedText text={c.preview} context="prose" /> : '\u00a0'}</span>
        {c.unreadCount > 0 && (
          <span className="unread" aria-label={`${c.unreadCount >= 10 ? 'more than 9' : c.unreadCount} unread`}>
            {c.unreadCount >= 10 ? '9+' : c.unreadCount}
          </span>
        )}
      </div>
      <div className="chips">
        {props.showStatus && <span className={`chip status-${c.status}`}>{c.status}</span>}
        {c.priority && <span className={`chip priority-${c.priority}`}>{c.priority}</span>}
        {inbox && (
          <span className="chip inbox-name">
            <UntrustedText text={inbox} />
          </span>
        )}
        <span className="chip assignee">{c.assigneeName ? <UntrustedText text={c.assigneeName} /> : 'Unassigned'}</span>
        {team && (
          <span className="chip team" data-testid="row-team">
            <span className="visually-hidden">Team </span>
            <UntrustedText text={team} />
          </span>
        )}
        {c.labels.slice(0, 3).map((l) => (
          <span key={l} className="chip label">
            <UntrustedText text={l} />
          </span>
        ))}
        {c.labels.length > 3 && <span className="chip label">+{c.labels.length - 3}</span>}
      </div>
    </>
  );
});
