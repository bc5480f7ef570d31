// The worst message text a contact can send (the Client API takes up to 150,000 characters), for
// the benchmark's hostile-rendering figures and the renderer tests that prove the mitigations are
// applied: one unbroken word (Chromium's line breaking of one took seconds: Thai is broken by
// dictionary, Arabic letters that join on both sides are shaped again at each try, both quadratic
// in the word's length), markdown nested past the parser's limit, and long mixed text (scripts in
// both directions, emoji, combining marks, links, code, bidi controls).

export const SCRIPTS = {
  latin: 'abcdefghijklmnopqrstuvwxyz',
  thai: 'กขคงจฉชซญฎฏฐฑฒณดตถทธนบปผฝพฟภมยรลวศษสหฬอฮ',
  // Letters that join on both sides: the whole word is one shaping run.
  arabic: 'بتثجحخسشصضطظعغفقكلمنهي',
} as const;

/** The service's own limit on a message (server/http/message-fields.ts). */
export const MAX_MESSAGE = 150_000;

/** One word of `n` letters of a script, no break opportunity anywhere. */
export const longWord = (n: number, script: keyof typeof SCRIPTS = 'latin') => SCRIPTS[script].repeat(Math.ceil(n / SCRIPTS[script].length)).slice(0, n);

/** Blockquotes, lists and emphasis nested far past markdown-it's own limit (maxNesting), in one message. */
export function deepMarkdown(): string {
  const quotes = `${'>'.repeat(5_000)} quoted deep down`;
  const list = Array.from({ length: 400 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n');
  const emphasis = `${'*_'.repeat(3_000)}emphasis${'_*'.repeat(3_000)}`;
  const links = `${'['.repeat(5_000)}link${'](https://example.com)'.repeat(200)}`;
  const table = ['| a | b |', '| - | - |', ...Array.from({ length: 2_000 }, (_, i) => `| ${'`x`'.repeat(5)} ${i} | **${i}** |`)].join('\n');
  return [quotes, list, emphasis, links, table].join('\n\n').slice(0, MAX_MESSAGE);
}

const PIECES = [
  'The export to CSV produces an empty file when the date range spans a month.',
  'مرحبا، لدي مشكلة في الفاتورة الأخيرة ولا أستطيع تنزيلها.',
  'สวัสดีครับผมมีปัญหากับการสั่งซื้อสินค้าเมื่อวานนี้กรุณาช่วยตรวจสอบให้ด้วยครับ',
  'שלום, ההזמנה שלי לא הגיעה עדיין.',
  '我的订单还没有到，请帮我查一下物流信息。',
  '注文がまだ届いていません。確認していただけますか？',
  'Thanks 👍🏽👨‍👩‍👧‍👦 — ça marche très bien maintenant!',
  'Z̷̢a̸̧l̶̨g̵̢o̴̧ t̷̢ȩ̸x̶̨t̵̢ with combining marks',
  'See https://example.com/a/very/long/path/that/keeps/going/and/going?with=query&and=more#fragment',
  '`inline code with a long_identifier_that_does_not_break_easily`',
  'Invoice\u202Efdp.exe and \u2067isolated\u2069 text',
  'supercalifragilisticexpialidocious'.repeat(20),
];

/** `n` characters of mixed text in paragraphs. */
export function mixedText(n: number): string {
  const out: string[] = [];
  let length = 0;
  for (let i = 0; length < n; i++) {
    const piece = PIECES[i % PIECES.length]!;
    const sep = i % 7 === 6 ? '\n\n' : ' ';
    out.push(piece, sep);
    length += piece.length + sep.length;
  }
  return out.join('').slice(0, n);
}

/** The benchmark's hostile messages, by what the figure calls them. */
export const HOSTILE_MESSAGES: { name: string; text: () => string }[] = [
  { name: 'one 60,000-letter word (Thai)', text: () => longWord(60_000, 'thai') },
  { name: 'one 60,000-letter word (Arabic)', text: () => longWord(60_000, 'arabic') },
  { name: 'one 60,000-letter word (Latin)', text: () => longWord(60_000, 'latin') },
  { name: 'one 149,000-letter word (Thai)', text: () => longWord(149_000, 'thai') },
  { name: 'deep markdown nesting', text: deepMarkdown },
  { name: '150,000 characters of mixed text', text: () => mixedText(150_000) },
];
