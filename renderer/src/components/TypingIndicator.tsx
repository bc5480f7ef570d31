// Under the open conversation's history: "Dana is typing…" (the contact) and, apart from it,
// "Alex is replying…" / "Alex is writing a note…" (a colleague, so two agents do not answer at
// once). From live typing events. Names are rendered as text; the region is polite.
import { useMemo } from 'react';
import { typingLine, typingLines, useTyping } from '../live/typing';
import { UntrustedText } from './UntrustedText';

export function TypingIndicator({ conversationId }: { conversationId: number }) {
  const typists = useTyping((s) => s.byConversation[conversationId]);
  const lines = useMemo(() => typingLines(Object.values(typists ?? {})), [typists]);
  return (
    <p className="typing-indicator" role="status" aria-live="polite">
      {lines.contact && (
        <span className="typing-contact" data-testid="typing-contact">
          <UntrustedText text={lines.contact} />
        </span>
      )}
      {lines.contact && lines.colleagues ? ' · ' : ''}
      {lines.colleagues && (
        <span className="typing-colleague" data-testid="typing-colleague">
          <UntrustedText text={lines.colleagues} />
        </span>
      )}
    </p>
  );
}

/** A list row's preview while someone types there: the colleague first. */
export function RowTyping({ conversationId }: { conversationId: number }) {
  const typists = useTyping((s) => s.byConversation[conversationId]);
  const line = useMemo(() => typingLine(Object.values(typists ?? {})), [typists]);
  const colleague = useMemo(() => Object.values(typists ?? {}).some((t) => t.agent), [typists]);
  if (!line) return null;
  return (
    <span className={`row-typing${colleague ? ' colleague' : ''}`} data-testid="row-typing">
      <UntrustedText text={line} />
    </span>
  );
}
