// The composer's emoji picker: a button that opens a small dialog with a search box and a grid of
// emoji (composer/emoji.ts). Keyboard first, like the app's other pickers: type to filter, arrows
// move (the grid is 8 wide), Enter inserts at the caret, Esc closes; focus goes back to the box.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { searchEmoji } from '../composer/emoji';

const COLUMNS = 8;

export function EmojiButton(props: { onPick(char: string): void; onDone(): void }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = (picked?: string) => {
    setOpen(false);
    if (picked) props.onPick(picked);
    // Back to the text box after a pick; back to the button after Esc.
    if (picked) props.onDone();
    else button.current?.focus();
  };
  return (
    <div className="emoji-picker">
      <button ref={button} type="button" className="emoji-button" aria-haspopup="dialog" aria-expanded={open} aria-label="Insert emoji" onClick={() => setOpen((o) => !o)}>
        <span aria-hidden="true">🙂</span>
      </button>
      {open && <EmojiDialog onClose={close} />}
    </div>
  );
}

function EmojiDialog(props: { onClose(picked?: string): void }) {
  const uid = useId();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const shown = useMemo(() => searchEmoji(query), [query]);
  const at = Math.min(active, Math.max(0, shown.length - 1));
  useEffect(() => {
    input.current?.focus();
  }, []);
  const optionId = (i: number) => `${uid}-emoji-${i}`;
  // The active emoji stays in sight as the arrows move through the grid.
  useEffect(() => {
    document.getElementById(`${uid}-emoji-${at}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [uid, at]);
  const move = (delta: number) => setActive(Math.max(0, Math.min(shown.length - 1, at + delta)));
  const onKeyDown = (e: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: COLUMNS, ArrowUp: -COLUMNS };
    if (e.key in moves) {
      e.preventDefault();
      move(moves[e.key]!);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (shown[at]) props.onClose(shown[at].char);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      props.onClose();
    } else if (e.key === 'Tab') {
      // One stop: the search box; the grid is reached with the arrows.
      e.preventDefault();
    }
  };
  return (
    <div role="dialog" aria-label="Emoji" className="emoji-dialog" onKeyDown={onKeyDown}>
      <input
        ref={input}
        type="text"
        role="combobox"
        aria-label="Search emoji"
        aria-expanded="true"
        aria-controls={`${uid}-list`}
        aria-activedescendant={shown.length ? optionId(at) : undefined}
        aria-autocomplete="list"
        placeholder="Search emoji"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
      />
      <ul id={`${uid}-list`} role="listbox" aria-label="Emoji" className="emoji-grid">
        {shown.map((e, i) => (
          <li
            key={e.char}
            id={optionId(i)}
            role="option"
            aria-selected={i === at}
            aria-label={e.name}
            title={e.name}
            className={i === at ? 'active' : undefined}
            onMouseDown={(ev) => {
              ev.preventDefault();
              props.onClose(e.char);
            }}
          >
            {e.char}
          </li>
        ))}
      </ul>
      {!shown.length && <p className="muted">No emoji by that name.</p>}
    </div>
  );
}
