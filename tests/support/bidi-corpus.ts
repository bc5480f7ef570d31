// Attack strings for bidi and invisible characters (outside security review, finding 2), and
// legitimate text that must come through unchanged. Used by the shared helper's tests, the
// component tests (every place untrusted text is shown) and the end-to-end screenshot.

export interface Attack {
  name: string;
  text: string;
  /** Code points a name shows as tokens. */
  hidden: number[];
  /** Code points a message body shows as tokens (the ones that reorder letters, tags, annotations). */
  hiddenInProse: number[];
}

export const ATTACKS: Attack[] = [
  { name: 'right-to-left override (the review\'s case)', text: 'Invoice\u202Efdp.exe', hidden: [0x202e], hiddenInProse: [0x202e] },
  { name: 'left-to-right override', text: 'abc\u202Dxyz', hidden: [0x202d], hiddenInProse: [0x202d] },
  { name: 'embeddings and pop', text: '\u202Bfile\u202C\u202Aname\u202C', hidden: [0x202b, 0x202c, 0x202a, 0x202c], hiddenInProse: [0x202b, 0x202c, 0x202a, 0x202c] },
  { name: 'isolates (U+2066-2069)', text: 'pay \u2066admin\u2069 \u2067x\u2069 \u2068y\u2069', hidden: [0x2066, 0x2069, 0x2067, 0x2069, 0x2068, 0x2069], hiddenInProse: [0x2066, 0x2069, 0x2067, 0x2069, 0x2068, 0x2069] },
  { name: 'Trojan Source comment', text: '/*\u202E } \u2066if (isAdmin)\u2069 \u2066 begin admins only */', hidden: [0x202e, 0x2066, 0x2069, 0x2066], hiddenInProse: [0x202e, 0x2066, 0x2069, 0x2066] },
  { name: 'bidi marks (LRM, RLM, ALM)', text: 'Dana\u200E Lee\u200F\u061C', hidden: [0x200e, 0x200f, 0x061c], hiddenInProse: [] },
  { name: 'zero width space, joiners, word joiner, BOM (U+200B-200D)', text: 'Ali\u200Bce A\u200Cdmin R\u200Doot x\u2060y\uFEFF', hidden: [0x200b, 0x200c, 0x200d, 0x2060, 0xfeff], hiddenInProse: [] },
  { name: 'soft hyphen and grapheme joiner', text: 'pay\u00ADpal sup\u034Fport', hidden: [0x00ad, 0x034f], hiddenInProse: [] },
  { name: 'a blank-looking name (Hangul filler)', text: '\u3164', hidden: [0x3164], hiddenInProse: [] },
  { name: 'a line break and a tab in a name', text: 'Alice\nSupport Team\tAdmin', hidden: [0x0a, 0x09], hiddenInProse: [] },
  { name: 'hidden tag characters (ASCII smuggling)', text: 'hello\u{E0041}\u{E0042}\u{E0043}', hidden: [0xe0041, 0xe0042, 0xe0043], hiddenInProse: [0xe0041, 0xe0042, 0xe0043] },
  { name: 'interlinear annotation', text: 'a\uFFF9b\uFFFAc\uFFFB', hidden: [0xfff9, 0xfffa, 0xfffb], hiddenInProse: [0xfff9, 0xfffa, 0xfffb] },
  { name: 'Mongolian vowel separator', text: 'x\u180Ey', hidden: [0x180e], hiddenInProse: [] },
];

/** Text that uses these characters legitimately, or right-to-left scripts: shown as it is. */
export const LEGITIMATE = [
  'Family 👨\u200D👩\u200D👧',
  'Developer 👩🏽\u200D💻',
  'Persian می\u200Cخواهم',
  'Hindi क्\u200Dष',
  'Flag 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}',
  'Hebrew שלום',
  'Arabic مرحبا بك',
  'Red heart ❤\uFE0F',
];

/** Every character of these kinds, whatever the context: none may reach a notification or a title. */
// eslint-disable-next-line no-control-regex, no-misleading-character-class -- these characters are what is looked for
export const ALL_HIDDEN = /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\u3164\ufeff\uffa0\ufff9-\ufffb]|[\u{E0000}-\u{E007F}]/u;
