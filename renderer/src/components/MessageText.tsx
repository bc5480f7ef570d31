// A message's text as sanitized markdown (markdown/render.ts). Links never navigate the app:
// a click asks main to open them outside (shell.openExternal), which checks them again.
import { useMemo } from 'react';
import type { MouseEvent } from 'react';
import { renderMessageHtml } from '../markdown/render';
import { openExternalLink } from '../platform/external-links';
import { useSession } from '../platform/session';
import { useUi } from '../state/ui';

export function MessageText({ text }: { text: string }) {
  const { bridge } = useSession();
  const notify = useUi((s) => s.notify);
  // Sanitized by renderMessageHtml: markdown-it with html disabled, then DOMPurify.
  const html = useMemo(() => renderMessageHtml(text), [text]);
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
  return <div className="content markdown" dir="auto" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
}
