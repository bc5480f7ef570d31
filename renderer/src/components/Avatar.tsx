// A contact's avatar: their initials, and their picture when the service holds one (`thumbnail`),
// fetched and checked by main (files.avatar: the service's own origin, an image by its bytes) and
// shown from a blob: URL. While it loads, or when main would not fetch it, the initials stay.
import { visibleControls } from '../../../shared/text/untrusted-text';
import { useAvatarFile } from '../files/use-service-file';

/** Up to two letters: the first of the first and last words ("Ava Nguyen" → "AN"), by whole characters. */
export function initialsOf(name: string): string {
  const words = visibleControls(name).replace(/⟨[^⟩]*⟩/g, '').trim().split(/\s+/).filter((w) => /\p{L}|\p{N}/u.test(w));
  const first = (w: string | undefined) => (w ? ([...w.replace(/^[^\p{L}\p{N}]+/u, '')][0] ?? '') : '');
  const letters = words.length > 1 ? first(words[0]) + first(words.at(-1)) : first(words[0]);
  return letters.toLocaleUpperCase() || '?';
}

/** A stable hue per name, so the same contact always has the same colour. */
function hueOf(name: string): number {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.codePointAt(0)!) % 360;
  return h;
}

export function Avatar(props: { name: string; contactId?: number; hasPicture?: boolean; size?: 'small' | 'large' }) {
  const picture = useAvatarFile(props.hasPicture ? props.contactId : undefined);
  const className = `avatar ${props.size ?? 'small'}`;
  if (picture.status === 'ok' && picture.kind === 'image') {
    return <img className={className} src={picture.url} alt="" aria-hidden="true" />;
  }
  return (
    <span className={className} aria-hidden="true" style={{ backgroundColor: `hsl(${hueOf(props.name)} 45% 30%)` }}>
      {initialsOf(props.name)}
    </span>
  );
}
