// The browser finds a font for a script the first time the page lays out a letter of it (its
// fallback search, and loading the font found), and that first time costs: 3-19 ms per script in
// Chromium here, and ~25 ms of one frame for a message of mixed scripts (bench "hostile", 150,000
// characters of mixed text; measured on a bare page 2026-11-28: the same 3,000 characters laid out
// in 12-27 ms the first time, 1-3 ms after). A contact's message is often the page's first letter
// of its script. So, once the inbox is up, one script at a time in idle time, a few letters of each
// are laid out unseen, in the style messages use (plain, bold, code), and taken out again.

import { whenIdle } from './idle';

/** A few letters of each script a message may hold; each is laid out in an idle moment of its own. */
export const SCRIPT_SAMPLES: readonly string[] = [
  'Latin Ææ Łł Şş ẞ',
  'Ελληνικά Кириллица',
  'العربية مرحبا فارسی',
  'עברית שלום',
  'ภาษาไทย สวัสดี',
  '中文汉字 漢字',
  'にほんご カタカナ',
  '한국어 한글',
  'हिन्दी বাংলা',
  'தமிழ் తెలుగు',
  'ქართული Հայերեն አማርኛ',
  '👍🏽👨‍👩‍👧‍👦❤️🎉',
  'Z̷̢a̸̧l̶̨g̵̢o̴̧',
];

/**
 * Lays out each sample unseen, one per idle moment, in an element styled as a message's text
 * (`className`). Returns how to stop (what is still waiting is not laid out).
 */
export function warmFontFallback(doc: Document, className = 'content markdown'): () => void {
  let cancel: (() => void) | undefined;
  let next = 0;
  const one = () => {
    const sample = SCRIPT_SAMPLES[next++];
    if (sample === undefined) return;
    const box = doc.createElement('div');
    box.className = className;
    box.setAttribute('aria-hidden', 'true');
    // Laid out and shaped (visibility keeps it from being painted, unlike display: none, which
    // would skip layout too), out of the way of anything on screen.
    box.style.cssText = 'position:fixed;left:0;top:0;width:20rem;visibility:hidden;pointer-events:none;contain:layout paint';
    for (const tag of ['span', 'strong', 'code']) {
      const part = doc.createElement(tag);
      part.textContent = `${sample} `;
      box.append(part);
    }
    doc.body.append(box);
    // Asking for its size lays it out now, inside this idle moment.
    void box.offsetHeight;
    box.remove();
    cancel = whenIdle(one, { within: 5_000, otherwiseAfter: 50 });
  };
  cancel = whenIdle(one, { within: 5_000, otherwiseAfter: 50 });
  return () => cancel?.();
}
