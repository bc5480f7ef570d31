// Keyboard chords: how a shortcut is written in the registry ('j', 'mod+k', '?', 'shift+ArrowUp')
// and how a KeyboardEvent is matched against it. 'mod' is Cmd on macOS and Ctrl elsewhere.

export const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** The chord a keyboard event spells, in the registry's notation. */
export function chordOf(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>): string {
  const mod = isMac() ? e.metaKey : e.ctrlKey;
  const printable = e.key.length === 1;
  const letter = printable && e.key.toLowerCase() !== e.key.toUpperCase();
  const parts: string[] = [];
  if (mod) parts.push('mod');
  if (e.altKey) parts.push('alt');
  // For symbols, Shift is part of the character ('?' is Shift+/ on many layouts), so it is not
  // written; for letters and named keys it is.
  if (e.shiftKey && (!printable || letter)) parts.push('shift');
  parts.push(letter ? e.key.toLowerCase() : e.key);
  return parts.join('+');
}

const names: Record<string, string> = { ArrowDown: '↓', ArrowUp: '↑', Enter: 'Enter', Escape: 'Esc', ' ': 'Space' };

/** How a chord is shown to the agent ('mod+k' → 'Ctrl K' or '⌘ K'). */
export function displayChord(chord: string): string {
  return chord
    .split('+')
    .map((p) => (p === 'mod' ? (isMac() ? '⌘' : 'Ctrl') : p === 'shift' ? 'Shift' : p === 'alt' ? (isMac() ? '⌥' : 'Alt') : (names[p] ?? p.toUpperCase())))
    .join(' ');
}

/** Where text is being typed: plain shortcuts must not fire there. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (target as HTMLInputElement).type;
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(type);
  }
  return false;
}

/** Controls that own Enter, Space and arrow keys themselves (buttons, links, tabs, menus). */
export function ownsNavigationKeys(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest('[data-shortcut-scope="list"]')) return false;
  return Boolean(target.closest('button, a[href], [role="tab"], [role="menuitem"], [role="option"], [role="dialog"], summary'));
}
