// Which characters hide or reorder untrusted text, per context (shared/text/untrusted-text.ts), and
// the two places that take plain text only: OS notifications (main's app.notify) and the window
// title (the Electron shell; nothing in the app sets it from untrusted text today, and any future
// path goes through `windowTitle`). The attack corpus is tests/support/bidi-corpus.ts; the
// components that show the text are tested in tests/renderer/untrusted-text.test.tsx.
import { describe, expect, it, vi } from 'vitest';
import { createMainCore } from '../../main/core/core';
import { redactingLogger } from '../../main/core/redact';
import { memoryVault } from '../../main/core/vault';
import { notificationText } from '../../shared/text/notification-text';
import { APP_TITLE, hasHiddenCharacters, isCandidate, mayHoldHidden, stripControls, textPieces, visibleControls, windowTitle } from '../../shared/text/untrusted-text';
import { ALL_HIDDEN, ATTACKS, LEGITIMATE } from '../support/bidi-corpus';

const tokensOf = (text: string, context: 'name' | 'prose') => textPieces(text, context).flatMap((p) => ('text' in p ? [] : [p.codePoint]));

describe('hidden characters, per context', () => {
  it.each(ATTACKS.map((a) => [a.name, a] as const))('%s: every one a token in a name; those that reorder, in prose', (_name, attack) => {
    expect(tokensOf(attack.text, 'name')).toEqual(attack.hidden);
    expect(tokensOf(attack.text, 'prose')).toEqual(attack.hiddenInProse);
    const shown = visibleControls(attack.text);
    expect(shown).not.toMatch(ALL_HIDDEN);
    expect(hasHiddenCharacters(shown)).toBe(false);
    // Every other character is kept, in order.
    expect(textPieces(attack.text).map((p) => ('text' in p ? p.text : String.fromCodePoint(p.codePoint))).join('')).toBe(attack.text);
  });

  it('the review\'s case reads as what it is, with a label for screen readers', () => {
    expect(visibleControls('Invoice\u202Efdp.exe')).toBe('Invoice⟨U+202E⟩fdp.exe');
    expect(textPieces('Invoice\u202Efdp.exe')[1]).toEqual({ codePoint: 0x202e, token: '⟨U+202E⟩', label: 'hidden character: right-to-left override (U+202E)' });
    expect(visibleControls('x\u{E0041}')).toBe('x⟨U+E0041⟩');
  });

  it.each(LEGITIMATE)('%s comes through unchanged in both contexts', (text) => {
    expect(textPieces(text, 'name')).toEqual([{ text }]);
    expect(textPieces(text, 'prose')).toEqual([{ text }]);
    expect(stripControls(text)).toBe(text);
  });

  it('joiners outside emoji and joining scripts, and a flag\'s tags without the flag, are tokens', () => {
    expect(tokensOf('A\u200Dlice', 'name')).toEqual([0x200d]);
    expect(tokensOf('👨\u200Dx', 'name')).toEqual([0x200d]);
    expect(tokensOf('x\u{E0067}\u{E0062}\u{E007F}', 'name')).toEqual([0xe0067, 0xe0062, 0xe007f]);
    expect(tokensOf('🏴\u{E007F}', 'name')).toEqual([0xe007f]);
  });
});

describe('the fast path for ordinary text', () => {
  it('its expression holds every character either context may flag, among all of Unicode', () => {
    const missed: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      // The flagging rules' own candidates, and every character the attack corpus hides.
      if ((isCandidate(cp) || ALL_HIDDEN.test(ch)) && !mayHoldHidden(`a${ch}b`)) missed.push(cp);
    }
    expect(missed).toEqual([]);
  });

  it('ordinary text is one run, as it came; empty text none', () => {
    for (const text of ['Ana Lima', 'Where is my refund?', 'שלום עולם', 'مرحبا', '👍 done', 'Łódź, 東京']) {
      expect(mayHoldHidden(text)).toBe(false);
      expect(textPieces(text, 'name')).toEqual([{ text }]);
      expect(textPieces(text, 'prose')).toEqual([{ text }]);
    }
    expect(textPieces('', 'name')).toEqual([]);
  });
});

describe('plain-text places strip them', () => {
  it.each(ATTACKS.map((a) => [a.name, a.text] as const))('%s: notification text and window title carry none', (_name, text) => {
    expect(stripControls(text)).not.toMatch(ALL_HIDDEN);
    expect(notificationText(text, 100)).not.toMatch(ALL_HIDDEN);
    expect(windowTitle(`${text} · Agent Inbox`)).not.toMatch(ALL_HIDDEN);
  });

  it('main\'s app.notify hands the OS none of them, whatever the page sent', async () => {
    const notify = vi.fn((_n: { title: string; body: string }) => true);
    const core = createMainCore({ vault: memoryVault(), logger: redactingLogger(() => undefined, () => []), desktop: { notify } });
    for (const attack of ATTACKS) {
      expect(await core.call('app.notify', { title: `New message from ${attack.text}`, body: `${attack.text} wrote`, conversationId: 1 })).toEqual({ ok: true, value: { shown: true } });
      const shown = notify.mock.calls.at(-1)![0];
      expect(shown.title).not.toMatch(ALL_HIDDEN);
      expect(shown.body).not.toMatch(ALL_HIDDEN);
    }
    expect(notify.mock.calls[0]![0].title).toBe('New message from Invoicefdp.exe');
  });

  it('a window title is one clean line, cut at 120 characters, the app\'s name when nothing is left', () => {
    expect(windowTitle('Invoice\u202Efdp.exe\n· Agent Inbox')).toBe('Invoicefdp.exe · Agent Inbox');
    expect(windowTitle('\u202E\u200B\n')).toBe(APP_TITLE);
    expect(windowTitle('x'.repeat(300))).toHaveLength(120);
    expect(windowTitle('Family 👨\u200D👩\u200D👧')).toBe('Family 👨\u200D👩\u200D👧');
  });
});
