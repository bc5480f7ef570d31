// Message text → safe HTML. Message content comes from contacts and the network: markdown-it
// parses it with raw HTML disabled (tags show as text), then DOMPurify keeps only the few
// elements markdown produces, links only to http(s)/mailto, and no attributes that run code.
// Mentions (`[@Name](mention://user/<id>/<name>)`) become inert chips. Images are not rendered:
// they would be fetched from the sender's server, and the CSP blocks remote images anyway.
// Direction: every block takes its own (`dir="auto"`, which also isolates it), and the characters
// that reorder letters (bidi embeddings, overrides, isolates) and hidden tag characters are shown
// as visible tokens (shared/text/untrusted-text.ts, `prose`), so `Invoice\u202Efdp.exe` in a
// message reads `Invoice⟨U+202E⟩fdp.exe`, in link text and code too.
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { keptRendering } from './rendered-cache';
import { textPieces } from '../../../shared/text/untrusted-text';
import { longRuns, runChunks } from './pieces';

const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
md.disable(['image']);
// markdown-it's own check refuses javascript:, vbscript:, file: and most data: URLs; ours is
// stricter: only the schemes that may leave the app, and our mention links.
md.validateLink = (url: string) => SAFE_HREF.test(url.trim());

const SAFE_HREF = /^(?:https?:\/\/|mailto:|mention:\/\/user\/\d+\/)/i;
const MENTION = /^mention:\/\/user\/(\d+)\//i;

const ALLOWED_TAGS = ['p', 'br', 'strong', 'em', 's', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span'];

let purifier: ReturnType<typeof DOMPurify> | undefined;

function getPurifier() {
  if (purifier) return purifier;
  const p = DOMPurify(window);
  p.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName !== 'A') return;
    const href = node.getAttribute('href') ?? '';
    const mention = MENTION.exec(href);
    if (mention) {
      node.removeAttribute('href');
      node.setAttribute('class', 'mention');
      node.setAttribute('data-mention-user', mention[1]!);
      return;
    }
    if (!SAFE_HREF.test(href)) {
      node.removeAttribute('href');
      return;
    }
    // The click goes to main (shell.openExternal); these make a middle-click harmless too.
    node.setAttribute('rel', 'noopener noreferrer nofollow');
    node.setAttribute('target', '_blank');
  });
  purifier = p;
  return p;
}

const BLOCKS = 'p, li, ul, ol, blockquote, pre, h1, h2, h3, h4, h5, h6, table, th, td';

/**
 * Text, with every long run without a space (pieces.ts: Chromium's line breaking of one is
 * quadratic) in a `span.long-run` (styles.css: `word-break: break-all`) holding a `<wbr>` every
 * RUN_CHUNK characters: the line breaker then never looks further than that at a time. The
 * text itself is unchanged (copying it gives what the contact sent).
 */
function appendText(doc: Document, into: Node, text: string) {
  let at = 0;
  for (const [start, end] of longRuns(text)) {
    if (start > at) into.appendChild(doc.createTextNode(text.slice(at, start)));
    const run = doc.createElement('span');
    run.className = 'long-run';
    for (const chunk of runChunks(text.slice(start, end))) {
      if (run.firstChild) run.appendChild(doc.createElement('wbr'));
      run.appendChild(doc.createTextNode(chunk));
    }
    into.appendChild(run);
    at = end;
  }
  if (at < text.length) into.appendChild(doc.createTextNode(text.slice(at)));
}

/** Blocks take their own direction; hidden characters in text become tokens, long runs get break points (after sanitizing: only our own markup is added). */
function isolate(root: DocumentFragment) {
  const doc = root.ownerDocument;
  for (const el of root.querySelectorAll(BLOCKS)) el.setAttribute('dir', 'auto');
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n as Text);
  for (const node of texts) {
    const pieces = textPieces(node.data, 'prose');
    if (pieces.every((p) => 'text' in p) && !longRuns(node.data).length) continue;
    const replaced = doc.createDocumentFragment();
    for (const p of pieces) {
      if ('text' in p) {
        appendText(doc, replaced, p.text);
        continue;
      }
      const token = doc.createElement('span');
      token.className = 'control-char';
      token.setAttribute('role', 'img');
      token.setAttribute('aria-label', p.label);
      token.setAttribute('title', p.label);
      token.textContent = p.token;
      replaced.appendChild(token);
    }
    node.replaceWith(replaced);
  }
}

/** Sanitized HTML for a message's text. Safe to pass to dangerouslySetInnerHTML. */
export const renderMessageHtml = (text: string): string => keptRendering(text, renderUncached);

function renderUncached(text: string): string {
  const html = md.render(text);
  const fragment = getPurifier().sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR: ['href', 'title', 'class', 'data-mention-user', 'rel', 'target'],
    ALLOWED_URI_REGEXP: /^(?:https?:\/\/|mailto:|mention:\/\/user\/\d+\/)/i,
    FORBID_TAGS: ['style', 'script', 'img', 'svg', 'math', 'iframe', 'object', 'embed', 'form', 'input'],
    ALLOW_DATA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  });
  isolate(fragment);
  const holder = fragment.ownerDocument.createElement('div');
  holder.appendChild(fragment);
  return holder.innerHTML;
}
