// "Dana is typing…" under the open conversation's history, from live typing events. Names are
// rendered as React text (never markup); the region is polite, so it is announced without
// interrupting.
import { useMemo } from 'react';
import { typingLine, useTyping } from '../live/typing';
import { UntrustedText } from './UntrustedText';

export function TypingIndicator({ conversationId }: { conversationId: number }) {
  const typists = useTyping((s) => s.byConversation[conversationId]);
  const line = useMemo(() => typingLine(Object.values(typists ?? {})), [typists]);
  return (
    <p className="typing-indicator" role="status" aria-live="polite">
      {line ? <UntrustedText text={line} /> : ''}
    </p>
  );
}
