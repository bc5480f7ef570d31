// The popup under the composer for `/` canned responses and `@` mentions. The textarea keeps
// focus (aria-activedescendant points here), so typing goes on while choosing.
import { UntrustedText } from './UntrustedText';
export interface Suggestion {
  id: string;
  label: string;
  detail?: string;
}

export function SuggestionList(props: { id: string; label: string; items: Suggestion[]; active: number; onPick(index: number): void }) {
  return (
    <ul id={props.id} role="listbox" aria-label={props.label} className="suggestions">
      {props.items.map((s, i) => (
        <li
          key={s.id}
          id={`${props.id}-${i}`}
          role="option"
          aria-selected={i === props.active}
          className={i === props.active ? 'active' : undefined}
          // mousedown, not click: the textarea must not lose focus first.
          onMouseDown={(e) => {
            e.preventDefault();
            props.onPick(i);
          }}
        >
          <span className="suggestion-label">
            <UntrustedText text={s.label} />
          </span>
          {s.detail && (
            <span className="suggestion-detail">
              <UntrustedText text={s.detail} />
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
