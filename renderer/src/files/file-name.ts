// The name a saved file gets. The name came from a contact: hidden and reordering characters
// (`invoice\u202Efdp.exe` reads as "invoiceexe.pdf"), path separators and characters file systems
// refuse are taken out, and a name that would run when double-clicked (a script or shortcut,
// which main hands over as plain bytes) gets `.txt` added, so saving it never makes a program.
// eslint-disable-next-line no-control-regex -- control characters are what it removes
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff\uffa0\u{e0000}-\u{e007f}]/gu;
const RESERVED = /[/\\:*?"<>|]/g;
const RUNS_WHEN_OPENED = /\.(bat|cmd|com|exe|scr|pif|cpl|msi|msp|jar|js|jse|mjs|vbs|vbe|wsf|wsh|ws|ps1|psm1|hta|lnk|url|reg|inf|sh|bash|zsh|command|app|desktop|html?|xhtml|svg|mht|mhtml|xml|xsl)$/i;

export function savedFileName(name: string, fallback = 'file'): string {
  const cleaned = name.replace(HIDDEN, '').replace(RESERVED, '_').replace(/^[.\s]+|[.\s]+$/g, '').slice(0, 200);
  const base = cleaned || fallback;
  return RUNS_WHEN_OPENED.test(base) ? `${base}.txt` : base;
}
