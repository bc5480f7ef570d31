// A contact's avatar: their initials, and their picture when the service holds one (`thumbnail`),
// fetched and checked by main (files.avatar: the service's own origin, an image by its bytes) and
// shown from a blob: URL. While it loads, or when main would not fetch it, the initials stay.
import { visibleControls } from '../../../shared/text/untrusted-text';
import { useAvatarFile } from '../files/use-service-file';

/** Printable ASCII only: most names, read without the Unicode property patterns below. */
const PLAIN = /^[ -~]*$/;

/** Up to two letters: the first of the first and last words ("Ava Nguyen" → "AN"), by whole characters. */
export function initialsOf(name: string): string {
  // The same answer as the general path for these names, without compiling its `\p{…}` patterns:
  // that compilation took about 1 ms of a cold open's first rows (once per page load).
  if (PLAIN.test(name)) return plainInitialsOf(name);
  const words = visibleControls(name).replace(/⟨[^⟩]*⟩/g, '').trim().split(/\s+/).filter((w) => /\p{L}|\p{N}/u.test(w));
  const first = (w: string | undefined) => (w ? ([...w.replace(/^[^\p{L}\p{N}]+/u, '')][0] ?? '') : '');
  const letters = words.length > 1 ? first(words[0]) + first(words.at(-1)) : first(words[0]);
  return letters.toLocaleUpperCase() || '?';
}

function plainInitialsOf(name: string): string {
  const words = name.split(' ').filter((w) => /[A-Za-z0-9]/.test(w));
  const first = (w: string | undefined) => (w ? (w.replace(/^[^A-Za-z0-9]+/, '')[0] ?? '') : '');
  const letters = words.length > 1 ? first(words[0]) + first(words.at(-1)) : first(words[0]);
  return letters.toLocaleUpperCase() || '?';
}

/** A stable hue per name, so the same contact always has the same colour. */
function hueOf(name: string): number {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.codePointAt(0)!) % 360;
  return h;
}

type AvatarProps = { name: string; contactId?: number; hasPicture?: boolean | undefined; size?: 'small' | 'large' | 'row' };

/**
 * `row`: a list row's, sized by the list's density in CSS (the same box whether initials or the
 * picture, so nothing moves when it arrives). Without a picture nothing is asked of main (and no
 * query is held: most rows).
 */
export function Avatar(props: AvatarProps) {
  return props.hasPicture && props.contactId !== undefined ? <Picture {...props} contactId={props.contactId} /> : <Initials {...props} />;
}

const classOf = (size: AvatarProps['size']) => `avatar ${size === 'row' ? 'row-avatar' : (size ?? 'small')}`;

function Picture(props: AvatarProps & { contactId: number }) {
  const picture = useAvatarFile(props.contactId);
  if (picture.status === 'ok' && picture.kind === 'image') return <img className={classOf(props.size)} src={picture.url} alt="" aria-hidden="true" />;
  return <Initials {...props} />;
}

function Initials(props: AvatarProps) {
  return (
    <span className={classOf(props.size)} aria-hidden="true" style={{ backgroundColor: `hsl(${hueOf(props.name)} 45% 30%)` }}>
      {initialsOf(props.name)}
    </span>
  );
}
