// Text from contacts or the network, shown safely (shared/text/untrusted-text.ts): isolated in a
// `<bdi dir="auto">` so right-to-left text or a bidi control inside it cannot reorder the
// interface around it, and with each hidden character (a bidi override, a zero width space, a tag
// character) shown as a visible token, `⟨U+202E⟩`, that screen readers announce by its name.
// `name` (the default) for names, emails, file names and attributes; `prose` for message text and
// previews, where only the characters that reorder letters become tokens.
import { Fragment, useMemo } from 'react';
import type { TextContext } from '../../../shared/text/untrusted-text';
import { textPieces } from '../../../shared/text/untrusted-text';

export function UntrustedText({ text, context = 'name' }: { text: string | null | undefined; context?: TextContext }) {
  const pieces = useMemo(() => textPieces(text ?? '', context), [text, context]);
  return (
    <bdi dir="auto">
      {pieces.map((p, i) =>
        'text' in p ? (
          <Fragment key={i}>{p.text}</Fragment>
        ) : (
          <span key={i} className="control-char" role="img" aria-label={p.label} title={p.label}>
            {p.token}
          </span>
        ),
      )}
    </bdi>
  );
}
