// A message's text as sanitized markdown (markdown/render.ts). Links never navigate the app:
// a click asks main to open them outside (shell.openExternal), which checks them again.
// A very long message (markdown/pieces.ts: past PIECE characters) shows its first piece and says
// how long it is; asked for the rest, it shows one more piece per frame, each rendered on its own
// and laid out only when on screen (styles.css `.message-piece`), so no frame holds it all.
import { useEffect, useMemo, useState } from 'react';
import type { MouseEvent } from 'react';
import { renderMessageHtml } from '../markdown/render';
import { messagePieces } from '../markdown/pieces';
import { openExternalLink } from '../platform/external-links';
import { useSession } from '../platform/session';
import { useUi } from '../state/ui';

function Piece({ text }: { text: string }) {
  // Sanitized by renderMessageHtml: markdown-it with html disabled, then DOMPurify.
  const html = useMemo(() => renderMessageHtml(text), [text]);
  return <div className="message-piece" dangerouslySetInnerHTML={{ __html: html }} />;
}

export function MessageText({ text }: { text: string }) {
  const { bridge } = useSession();
  const notify = useUi((s) => s.notify);
  const pieces = useMemo(() => messagePieces(text), [text]);
  const [wanted, setWanted] = useState(1);
  // Even the first piece comes a frame after the bubble: opening a conversation whose newest
  // message is long renders the conversation in one frame and the piece in the next, instead of
  // both in the click's task (bench "hostile": 51-54 ms frames, the click's task 30-35 ms of them).
  const [shown, setShown] = useState(0);
  // One more piece per frame until the wanted ones are in.
  useEffect(() => {
    if (shown >= Math.min(wanted, pieces.length)) return;
    const frame = requestAnimationFrame(() => setShown((n) => n + 1));
    return () => cancelAnimationFrame(frame);
  }, [shown, wanted, pieces.length]);
  const html = useMemo(() => (pieces.length === 1 ? renderMessageHtml(text) : ''), [pieces.length, text]);
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const link = (e.target as Element).closest('a');
    if (!link) return;
    e.preventDefault();
    const href = link.getAttribute('href');
    if (!href) return;
    void openExternalLink(bridge, href).then((outcome) => {
      if (outcome === 'refused') notify('This link cannot be opened: only web and mail links can.');
    });
  };
  if (pieces.length === 1) return <div className="content markdown" dir="auto" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
  const all = wanted >= pieces.length;
  return (
    <>
      <div className="content markdown long-message" dir="auto" onClick={onClick} data-pieces={pieces.length} data-pieces-shown={shown}>
        {pieces.slice(0, shown).map((piece, i) => (
          <Piece key={i} text={piece} />
        ))}
      </div>
      {!all && (
        <button type="button" className="link-button show-whole" onClick={() => setWanted(pieces.length)}>
          Show the whole message ({text.length.toLocaleString()} characters)
        </button>
      )}
      {all && shown < pieces.length && <p className="muted">Showing the whole message…</p>}
    </>
  );
}
