// The mitigations for message text a contact can use to freeze the page (markdown/pieces.ts), as
// structure, not timing (the time is `npm run bench`'s "hostile" figures): every long run without
// a space is in a `span.long-run` (styles.css: word-break: break-all) with a <wbr> at least every
// RUN_CHUNK characters and no characters added or lost; a message past PIECE characters shows its
// first piece and a way to the rest, which then comes whole and in order; ordinary text is
// rendered exactly as before.
import { act, cleanup, fireEvent, waitFor } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { messageSchema } from '../../shared/api/records';
import { MessageBubble } from '../../renderer/src/components/MessageBubble';
import { renderMessageHtml } from '../../renderer/src/markdown/render';
import { LONG_RUN, messagePieces, PIECE, RUN_CHUNK, safeCut } from '../../renderer/src/markdown/pieces';
import { HOSTILE_MESSAGES, longWord, mixedText } from '../support/hostile-text';
import { renderWithSession, silentBridge } from './support/render';

afterEach(cleanup);

const dom = (html: string) => {
  const div = document.createElement('div');
  div.innerHTML = html;
  return div;
};

/** The longest stretch of text the line breaker sees with no break opportunity: text between <wbr>s and spaces. */
function longestUnbroken(root: Element): number {
  let longest = 0;
  let current = 0;
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      for (const part of (node as Text).data.split(/(\s)/)) {
        if (/^\s$/.test(part)) current = 0;
        else longest = Math.max(longest, (current += [...part].length));
      }
      return;
    }
    const el = node as Element;
    // A block, a break point or a hidden-character token (an inline-block, which lines break around) ends the stretch.
    const ends = el.tagName === 'WBR' || el.tagName === 'BR' || el.tagName === 'P' || el.tagName === 'LI' || el.classList?.contains('control-char');
    if (ends) current = 0;
    for (const child of el.childNodes) walk(child);
    if (ends) current = 0;
  };
  walk(root);
  return longest;
}

describe('long runs without a space', () => {
  for (const script of ['latin', 'thai', 'arabic'] as const) {
    it(`a 60,000-letter ${script} word is one span.long-run with a break point every ${RUN_CHUNK} characters, text unchanged`, () => {
      const word = longWord(60_000, script);
      const root = dom(renderMessageHtml(word));
      const runs = root.querySelectorAll('span.long-run');
      expect(runs).toHaveLength(1);
      expect(runs[0]!.querySelectorAll('wbr').length).toBeGreaterThanOrEqual(60_000 / RUN_CHUNK - 1);
      expect(longestUnbroken(root)).toBeLessThanOrEqual(RUN_CHUNK + 1);
      // What the agent copies is what the contact sent: no character added (wbr is no character), none lost.
      expect(root.textContent === `${word}\n`).toBe(true);
    });
  }

  it('a piece of a long run holds few break points: each <wbr> is a shaping item, and a font lookup where the machine has no font for the script', () => {
    // Chromium looks for a fallback font again for each item of a script it has no font for (0.2 ms
    // each here): a 3,000-letter Thai piece broken every 32 letters (93 items) took 12-28 ms to lay out.
    for (const script of ['thai', 'arabic', 'latin'] as const) {
      const root = dom(renderMessageHtml(longWord(PIECE, script)));
      expect(root.querySelectorAll('wbr').length).toBeLessThanOrEqual(Math.ceil(PIECE / 250));
    }
  });

  it('a run inside a link, inline code and around hidden-character tokens gets break points too', () => {
    const long = longWord(LONG_RUN * 3, 'thai');
    const root = dom(renderMessageHtml(`see [${long}](https://example.com) and \`${long}\` and ${long}\u202E${long}`));
    expect(root.querySelector('a span.long-run')).not.toBeNull();
    expect(root.querySelector('code span.long-run')).not.toBeNull();
    expect(root.querySelector('.control-char')).not.toBeNull();
    expect(longestUnbroken(root)).toBeLessThanOrEqual(RUN_CHUNK + 1);
  });

  it('never cuts inside a character: surrogate pairs, combining marks and emoji sequences stay whole', () => {
    const family = '👨‍👩‍👧‍👦';
    const text = `${'e\u0301'.repeat(150)}${family.repeat(40)}${'😀'.repeat(120)}`;
    const root = dom(renderMessageHtml(text));
    expect(root.textContent === `${text}\n`).toBe(true);
    for (const node of root.querySelectorAll('span.long-run')) {
      for (const child of node.childNodes) {
        if (child.nodeType !== Node.TEXT_NODE) continue;
        const data = (child as Text).data;
        // No lone surrogate at either end, no chunk starting with a mark or after a joiner.
        expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(data), JSON.stringify(data)).toBe(false);
        expect(/^(?:\p{M}|\u200d|\ufe0f)/u.test(data), JSON.stringify(data)).toBe(false);
      }
    }
    expect(safeCut('a\u200db', 2)).toBe(3);
    expect(safeCut('😀😀', 1)).toBe(2);
  });

  it('ordinary text, runs just under the limit and right-to-left words are rendered as before (no long-run span)', () => {
    const ordinary = 'สวัสดีครับผมมีปัญหากับการสั่งซื้อ مرحبا، لدي مشكلة 我的订单还没有到 Thanks 👍🏽👨‍👩‍👧‍👦 see https://example.com/a/b?c=d `code` '.repeat(60);
    for (const text of ['Hello there, the export is **fixed**.', longWord(LONG_RUN - 1, 'thai'), 'مرحبا بك في الدعم', ordinary]) {
      expect(renderMessageHtml(text)).not.toContain('long-run');
    }
  });

  it('the stylesheet breaks a long run anywhere', () => {
    const css = readFileSync(resolve(import.meta.dirname, '../../renderer/src/styles.css'), 'utf8');
    expect(css).toMatch(/\.long-run\s*\{[^}]*word-break:\s*break-all/);
    expect(css).toMatch(/\.message-piece\s*\{[^}]*content-visibility:\s*auto/);
  });
});

describe('very long messages', () => {
  it('are cut into pieces of at most PIECE characters that join back to the text, at paragraph breaks where there are any', () => {
    for (const { text } of HOSTILE_MESSAGES) {
      const t = text();
      const pieces = messagePieces(t);
      expect(pieces.join('')).toBe(t);
      for (const p of pieces) expect(p.length).toBeLessThanOrEqual(PIECE + 64);
    }
    const paragraphs = Array.from({ length: 400 }, (_, i) => `Paragraph ${i} ${'word '.repeat(20)}`).join('\n\n');
    for (const p of messagePieces(paragraphs).slice(0, -1)) expect(p.endsWith('\n\n')).toBe(true);
    expect(messagePieces('short')).toEqual(['short']);
  });

  it('show their first piece a frame after the bubble and say how long they are; asked, the rest comes in order, whole', async () => {
    const text = mixedText(150_000);
    const m = messageSchema.parse({ id: 1, content: text, conversation_id: 7, message_type: 0, created_at: 1, sender: { id: 70, name: 'Contact', type: 'contact' } });
    const { container } = renderWithSession(<MessageBubble message={m} />, { bridge: silentBridge });
    const body = container.querySelector('.markdown')!;
    const pieces = messagePieces(text);
    // Not in the render that made the bubble (opening a conversation renders it with the rest).
    expect(body.querySelectorAll('.message-piece')).toHaveLength(0);
    await waitFor(() => expect(body.querySelectorAll('.message-piece')).toHaveLength(1));
    expect(body.textContent!.length).toBeLessThanOrEqual(PIECE);
    const more = container.querySelector('button.show-whole')!;
    expect(more.textContent).toContain('150,000 characters');
    await act(async () => {
      fireEvent.click(more);
    });
    await waitFor(() => expect(body.querySelectorAll('.message-piece')).toHaveLength(pieces.length), { timeout: 30_000 });
    expect(container.querySelector('button.show-whole')).toBeNull();
    // Every piece, in order, rendered as the whole path renders text.
    const shown = [...body.querySelectorAll('.message-piece')].map((p) => p.innerHTML);
    expect(shown.length).toBe(pieces.length);
    shown.forEach((html, i) => expect(html === renderMessageHtml(pieces[i]!), `piece ${i}`).toBe(true));
  }, 60_000);

  it('a message within PIECE characters renders exactly as before: one body, no pieces, no button', () => {
    const text = mixedText(PIECE);
    const m = messageSchema.parse({ id: 1, content: text, conversation_id: 7, message_type: 0, created_at: 1, sender: { id: 70, name: 'Contact', type: 'contact' } });
    const { container } = renderWithSession(<MessageBubble message={m} />, { bridge: silentBridge });
    const body = container.querySelector('.markdown')!;
    expect(body.querySelector('.message-piece')).toBeNull();
    expect(container.querySelector('button.show-whole')).toBeNull();
    expect(body.innerHTML).toBe(renderMessageHtml(text));
  });
});
