// Text from contacts and the network (names, emails, file names, attributes, message text) can
// carry characters that are invisible or that reorder what is shown around them: a contact named
// `Invoice\u202Efdp.exe` reads "Invoiceexe.pdf" wherever it is drawn as plain text. This module
// says which characters those are, per context, so every place that shows such text treats them
// the same way:
//
// - `name` (names, emails, file names, attribute keys and values, account names, activity lines):
//   every bidi control (marks, embeddings, overrides, isolates) and every invisible or control
//   character is shown as a visible token, `⟨U+202E⟩`, because in a name it can only hide or
//   disguise something. Kept as they are: a zero width joiner inside an emoji sequence (👩‍💻),
//   joiners between letters of scripts that need them (Persian, Arabic, Indic scripts), the tag
//   characters of a flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿), and variation selectors.
// - `prose` (message text, previews, snippets): only the characters that reorder letters
//   (embeddings, overrides, isolates) and the hidden tag and annotation characters are tokens.
//   Marks (LRM, RLM, ALM) and zero-width characters stay: people writing right-to-left or in
//   scripts that need them use them, and they cannot reorder letters.
//
// Wherever the text is shown it is also direction-isolated (`<bdi>`, `dir="auto"`), so even
// right-to-left text, or a control that is kept, cannot move the interface around it.
// Notifications and window titles cannot show tokens: `stripControls` removes the same characters.

export type TextContext = 'name' | 'prose';

/** A run of ordinary text, or one hidden character shown as a token. */
export type TextPiece = { text: string } | { codePoint: number; token: string; label: string };

const NAMES: Record<number, string> = {
  0x061c: 'Arabic letter mark',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
  0x00ad: 'soft hyphen',
  0x034f: 'combining grapheme joiner',
  0x180e: 'Mongolian vowel separator',
  0x200b: 'zero width space',
  0x200c: 'zero width non-joiner',
  0x200d: 'zero width joiner',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x2060: 'word joiner',
  0x2061: 'function application',
  0x2062: 'invisible times',
  0x2063: 'invisible separator',
  0x2064: 'invisible plus',
  0xfeff: 'zero width no-break space',
  0x115f: 'Hangul filler',
  0x1160: 'Hangul filler',
  0x3164: 'Hangul filler',
  0xffa0: 'Hangul filler',
  0xfff9: 'interlinear annotation',
  0xfffa: 'interlinear annotation',
  0xfffb: 'interlinear annotation',
};

const between = (cp: number, from: number, to: number) => cp >= from && cp <= to;

/** Explicit embeddings, overrides and isolates: the characters that reorder letters. */
const isReordering = (cp: number) => between(cp, 0x202a, 0x202e) || between(cp, 0x2066, 0x2069);
const isBidiMark = (cp: number) => cp === 0x061c || cp === 0x200e || cp === 0x200f;
const isTag = (cp: number) => between(cp, 0xe0000, 0xe007f);
const isControl = (cp: number) => cp <= 0x1f || between(cp, 0x7f, 0x9f);
const isInvisible = (cp: number) =>
  cp === 0x00ad ||
  cp === 0x034f ||
  cp === 0x115f ||
  cp === 0x1160 ||
  cp === 0x17b4 ||
  cp === 0x17b5 ||
  between(cp, 0x180b, 0x180f) ||
  between(cp, 0x200b, 0x200d) ||
  cp === 0x2028 ||
  cp === 0x2029 ||
  between(cp, 0x2060, 0x2064) ||
  between(cp, 0x206a, 0x206f) ||
  cp === 0x3164 ||
  cp === 0xfeff ||
  cp === 0xffa0 ||
  between(cp, 0xfff9, 0xfffb) ||
  between(cp, 0x1d173, 0x1d17a) ||
  isTag(cp);

const PICTOGRAPH = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\u{FE0F}]/u;
const JOINING_SCRIPT =
  /[\p{scx=Arabic}\p{scx=Syriac}\p{scx=Nko}\p{scx=Mongolian}\p{scx=Devanagari}\p{scx=Bengali}\p{scx=Gurmukhi}\p{scx=Gujarati}\p{scx=Oriya}\p{scx=Tamil}\p{scx=Telugu}\p{scx=Kannada}\p{scx=Malayalam}\p{scx=Sinhala}\p{scx=Khmer}\p{scx=Myanmar}]/u;
const BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;

/** Whether the hidden character at `i` of `cps` is a legitimate part of what it sits in. */
function isLegitimate(cps: number[], i: number): boolean {
  const cp = cps[i]!;
  const prev = i > 0 ? String.fromCodePoint(cps[i - 1]!) : '';
  const next = i + 1 < cps.length ? String.fromCodePoint(cps[i + 1]!) : '';
  if (cp === 0x200d && PICTOGRAPH.test(prev) && PICTOGRAPH.test(next)) return true;
  if ((cp === 0x200c || cp === 0x200d) && JOINING_SCRIPT.test(prev) && JOINING_SCRIPT.test(next)) return true;
  if (isTag(cp)) {
    // A flag: black flag, tag letters or digits, cancel tag.
    let start = i;
    while (start > 0 && between(cps[start - 1]!, 0xe0020, 0xe007e)) start--;
    let end = i;
    while (end < cps.length && between(cps[end]!, 0xe0020, 0xe007e)) end++;
    return start > 0 && cps[start - 1] === BLACK_FLAG && end > start && cps[end] === CANCEL_TAG && (cp !== CANCEL_TAG || end === i);
  }
  return false;
}

/** Every character either context may flag (`isFlagged` looks closer at these only). */
export const isCandidate = (cp: number) => isControl(cp) || isBidiMark(cp) || isReordering(cp) || isInvisible(cp) || isTag(cp) || between(cp, 0xfff9, 0xfffb);

/**
 * The same characters as one regular expression, wider where that is simpler (the test checks it
 * holds every candidate): text without any is ordinary as it is. Most names and previews are, and
 * walking them a code point at a time cost, for 80 preview-length texts in Node, 1.2-4.4 ms the first
 * time and 0.15 ms warm; with this, 0.16-0.23 and 0.03 ms (a cold open's first rows show ~80 texts).
 */
// Control characters and lone combining marks are what it looks for, one code point at a time.
// eslint-disable-next-line no-control-regex, no-misleading-character-class
const MAYBE_HIDDEN = /[\0-\x1f\x7f-\x9f\xad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb\u{1d173}-\u{1d17a}\u{e0000}-\u{e007f}]/u;

/** Whether `text` holds any character either context may flag. */
export const mayHoldHidden = (text: string) => MAYBE_HIDDEN.test(text);

function isFlagged(cps: number[], i: number, context: TextContext): boolean {
  const cp = cps[i]!;
  const candidate = context === 'name' ? isControl(cp) || isBidiMark(cp) || isReordering(cp) || isInvisible(cp) : isReordering(cp) || isTag(cp) || between(cp, 0xfff9, 0xfffb);
  return candidate && !isLegitimate(cps, i);
}

const hex = (cp: number) => cp.toString(16).toUpperCase().padStart(4, '0');
const nameOf = (cp: number) => NAMES[cp] ?? (isTag(cp) ? 'tag character' : isControl(cp) ? 'control character' : 'invisible character');

/** The text as runs of ordinary text and tokens for the characters hidden in this context. */
export function textPieces(text: string, context: TextContext = 'name'): TextPiece[] {
  if (!mayHoldHidden(text)) return text ? [{ text }] : [];
  const cps = Array.from(text, (c) => c.codePointAt(0)!);
  const pieces: TextPiece[] = [];
  let run = '';
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i]!;
    if (!isFlagged(cps, i, context)) {
      run += String.fromCodePoint(cp);
      continue;
    }
    if (run) pieces.push({ text: run });
    run = '';
    pieces.push({ codePoint: cp, token: `⟨U+${hex(cp)}⟩`, label: `hidden character: ${nameOf(cp)} (U+${hex(cp)})` });
  }
  if (run) pieces.push({ text: run });
  return pieces;
}

/** Whether any character of `text` would be shown as a token in this context. */
export const hasHiddenCharacters = (text: string, context: TextContext = 'name') => textPieces(text, context).some((p) => !('text' in p));

/** The text with each hidden character replaced by its visible token (for attributes, options, labels). */
export const visibleControls = (text: string, context: TextContext = 'name') => textPieces(text, context).map((p) => ('text' in p ? p.text : p.token)).join('');

/**
 * The text without the characters `name` context hides (legitimate joiners and flags kept), for
 * places that take plain text only: OS notifications, the window title. Line breaks and other
 * control characters become spaces; the rest are removed.
 */
export function stripControls(text: string): string {
  return textPieces(text, 'name')
    .map((p) => ('text' in p ? p.text : isControl(p.codePoint) || p.codePoint === 0x2028 || p.codePoint === 0x2029 ? ' ' : ''))
    .join('');
}

export const APP_TITLE = 'Agent Inbox';

/**
 * A window title from any text: hidden characters stripped, one line, at most 120 characters;
 * the app's name when nothing is left. The Electron shell passes every title the page sets
 * through this, so no future path can put a contact's bidi override in the title bar.
 */
export function windowTitle(text: string): string {
  const line = stripControls(text).replace(/\s+/g, ' ').trim();
  if (!line) return APP_TITLE;
  return line.length <= 120 ? line : `${Array.from(line).slice(0, 119).join('').trimEnd()}…`;
}
