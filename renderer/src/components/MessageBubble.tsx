// One message. Text from contacts is untrusted: it is rendered as text (React escapes it), never as HTML.
import type { Message } from '../../../shared/api/records';
import { fullTime } from './time';

const kindOf = (m: Message) => (m.message_type === 2 ? 'activity' : m.private ? 'note' : m.message_type === 0 ? 'incoming' : 'outgoing');

export function MessageBubble({ message: m }: { message: Message }) {
  const kind = kindOf(m);
  return (
    <article className={`bubble ${kind}`} aria-label={`${kind === 'note' ? 'Private note' : kind} message`} data-message-id={m.id}>
      {kind !== 'activity' && <div className="sender">{m.sender?.available_name || m.sender?.name || (kind === 'incoming' ? 'Contact' : 'Agent')}</div>}
      <div className="content">{m.content}</div>
      {m.attachments?.map((a) => (
        <div key={a.id} className="attachment">
          📎 {a.fallback_title || a.file_type} · {a.extension ?? ''} {a.file_size ? `· ${Math.round(a.file_size / 1024)} KB` : ''}
        </div>
      ))}
      <time dateTime={new Date(m.created_at * 1000).toISOString()}>{fullTime(m.created_at)}</time>
    </article>
  );
}
