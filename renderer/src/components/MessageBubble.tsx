// One message: incoming, outgoing, private note or activity. Text is untrusted and goes through
// MessageText (sanitized markdown); attachments are shown from the bytes main fetched
// (AttachmentView), an unsent message's with its upload progress. One of the
// agent's own that the service has not confirmed says so: sending, waiting to retry, or not sent
// (with the reason, Retry and Discard). Nothing the agent wrote disappears without their say.
import type { Attachment, Message } from '../../../shared/api/records';
import { isLocalMessage } from '../model/intent';
import { AttachmentView } from './AttachmentView';
import { Avatar } from './Avatar';
import { MessageText } from './MessageText';
import { UploadProgress } from './UploadProgress';
import type { UnsentInfo } from './unsent';
import { fullTime } from './time';
import { ActivityText } from './ActivityText';
import { UntrustedText } from './UntrustedText';
import { visibleControls } from '../../../shared/text/untrusted-text';

export type MessageKind = 'incoming' | 'outgoing' | 'note' | 'activity';

export const kindOf = (m: Message): MessageKind => (m.message_type === 2 ? 'activity' : m.private ? 'note' : m.message_type === 0 ? 'incoming' : 'outgoing');

const kindLabel: Record<MessageKind, string> = { incoming: 'Incoming message', outgoing: 'Reply', note: 'Private note', activity: 'Activity' };

/** A URL's last path segment, decoded when it can be (a malformed escape is shown as sent). */
function fileNameOf(url: string | null | undefined): string | undefined {
  const last = url?.split(/[?#]/)[0]?.split('/').pop();
  if (!last) return undefined;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

export function attachmentName(a: Attachment): string {
  return a.fallback_title || fileNameOf(a.data_url) || `${a.file_type}${a.extension ? `.${a.extension}` : ''}`;
}

/** What the agent reads about an unsent message of theirs. */
export function unsentText(u: UnsentInfo): string {
  if (u.state === 'failed') return `Not sent: ${u.lastError ?? 'the service refused it.'}`;
  // After a failed attempt the words stay put while the next attempt is on its way.
  if (u.lastErrorKind) return u.uncertain ? 'Not confirmed yet. Checking whether it was sent…' : 'Not sent yet. Will retry automatically.';
  return 'Sending…';
}

/**
 * What the service reports about an agent's reply reaching the contact (its `status`), for replies
 * only: notes and the contact's own messages have none worth showing. Unknown values show nothing.
 */
export function deliveryOf(m: Message): { state: 'sent' | 'delivered' | 'read' | 'failed'; text: string; error?: string } | undefined {
  if (kindOf(m) !== 'outgoing') return undefined;
  const error = typeof m.content_attributes?.external_error === 'string' ? m.content_attributes.external_error : undefined;
  switch (m.status) {
    case 'sent':
      return { state: 'sent', text: 'Sent' };
    case 'delivered':
      return { state: 'delivered', text: 'Delivered' };
    case 'read':
      return { state: 'read', text: 'Read' };
    case 'failed':
      return { state: 'failed', text: 'Not delivered', ...(error ? { error } : {}) };
    default:
      return undefined;
  }
}

const deliveryMark = { sent: '✓', delivered: '✓✓', read: '✓✓', failed: '!' } as const;

export function MessageBubble({
  message: m,
  unsent,
  onRetry,
  onDiscard,
  highlighted = false,
}: {
  message: Message;
  unsent?: UnsentInfo;
  onRetry?(seq: number): void;
  onDiscard?(seq: number): void;
  /** The search hit the agent opened: marked, and focusable so it can take focus. */
  highlighted?: boolean;
}) {
  const kind = kindOf(m);
  const sender = m.sender?.available_name || m.sender?.name || (kind === 'incoming' ? 'Contact' : 'Agent');
  const failed = unsent?.state === 'failed';
  // Retry and discard for what is not on its way right now: refused, or waiting for its next try.
  const actionable = unsent && unsent.seq > 0 && (failed || (unsent.state === 'queued' && Boolean(unsent.lastErrorKind)));
  const delivery = unsent ? undefined : deliveryOf(m);
  return (
    <article
      className={`bubble ${kind}${unsent ? ' unsent' : ''}${failed ? ' failed' : ''}${highlighted ? ' highlighted' : ''}`}
      aria-label={kind === 'activity' ? 'Activity' : `${kindLabel[kind]} from ${visibleControls(sender)}${unsent ? (failed ? ', not sent' : ', not sent yet') : ''}${highlighted ? ', search result' : ''}`}
      data-message-id={m.id}
      data-unsent={unsent?.state}
      data-highlighted={highlighted || undefined}
      tabIndex={highlighted ? -1 : undefined}
    >
      {kind !== 'activity' && (
        <div className="sender">
          {kind === 'incoming' && <Avatar name={sender} {...(m.sender?.id !== undefined ? { contactId: m.sender.id } : {})} hasPicture={Boolean(m.sender?.thumbnail) && m.sender?.type !== 'user'} />}
          <UntrustedText text={sender} />
          {kind === 'note' && <span className="note-tag">Private note</span>}
        </div>
      )}
      {m.content ? (
        kind === 'activity' ? (
          <div className="content">
            <ActivityText text={m.content} />
          </div>
        ) : (
          <MessageText text={m.content} />
        )
      ) : null}
      {m.attachments && m.attachments.length > 0 && (
        <ul className="attachments" aria-label="Attachments">
          {m.attachments.map((a) => (
            <AttachmentView key={a.id} attachment={a} name={attachmentName(a)} conversationId={m.conversation_id} messageId={m.id} pending={isLocalMessage(m)} />
          ))}
        </ul>
      )}
      {unsent && m.attachments?.length && m.echo_id ? <UploadProgress clientId={m.echo_id} /> : null}
      {unsent ? (
        <div className="unsent-state">
          <span className={failed ? 'error' : 'muted'}>
            <UntrustedText text={unsentText(unsent)} />
          </span>
          {actionable && onRetry && (
            <button type="button" className="link-button" onClick={() => onRetry(unsent.seq)}>
              Retry
            </button>
          )}
          {actionable && onDiscard && (
            <button type="button" className="link-button" onClick={() => onDiscard(unsent.seq)}>
              Discard
            </button>
          )}
        </div>
      ) : (
        <div className="message-meta">
          <time dateTime={new Date(m.created_at * 1000).toISOString()}>{fullTime(m.created_at)}</time>
          {delivery && (
            <span className={`delivery delivery-${delivery.state}`} data-testid="delivery">
              <span aria-hidden="true">{deliveryMark[delivery.state]}</span> {delivery.text}
              {delivery.error && (
                <>
                  : <UntrustedText text={delivery.error} context="prose" />
                </>
              )}
            </span>
          )}
        </div>
      )}
    </article>
  );
}
