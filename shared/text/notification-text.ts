// Text for an OS notification, used on both sides: the renderer words it, main cleans it again
// before the OS sees it (the renderer is not trusted to have). It comes from the network (a contact's name, a message), so it is
// reduced to one line of plain text: no control, bidi or invisible characters (`stripControls`,
// the same set `untrusted-text.ts` shows as tokens in names: a notification cannot show a token,
// and an override would reorder what the agent reads), whitespace collapsed, cut to a length every
// platform shows whole. It is never markup: on Linux, Electron passes the body to libnotify as is,
// and notification servers that announce `body-markup` (GNOME, KDE, dunst) read a subset of HTML in
// it, so the Linux host escapes it (`escapeBodyMarkup`); the title (summary) is plain text by the specification.
import { stripControls } from './untrusted-text';

export function notificationText(text: string, max: number): string {
  const line = stripControls(text).replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  // Cut on a code point boundary, never inside a surrogate pair.
  return `${Array.from(line).slice(0, max - 1).join('').trimEnd()}…`;
}

/** The body as markup-free text for a freedesktop notification server: `&`, `<`, `>` escaped. */
export const escapeBodyMarkup = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
