// The search box in the header. `/` focuses it; Escape clears it and goes back to the list.
import { useEffect, useRef } from 'react';
import { flushSync } from 'react-dom';
import { useUi } from '../state/ui';

export function SearchField() {
  const query = useUi((s) => s.searchQuery);
  const setQuery = useUi((s) => s.setSearchQuery);
  const focusRequest = useUi((s) => s.searchFocus);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focusRequest) {
      input.current?.focus();
      input.current?.select();
    }
  }, [focusRequest]);
  return (
    <div role="search" className="search-field">
      <input
        ref={input}
        type="search"
        aria-label="Search conversations, messages and contacts"
        placeholder="Search  ( / )"
        value={query}
        maxLength={200}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            // Rendered now, so the list is shown (not hidden under the results) when it takes the focus.
            flushSync(() => setQuery(''));
            document.getElementById('conversation-listbox')?.focus();
          } else if (e.key === 'ArrowDown') {
            e.preventDefault();
            (document.querySelector('.search-results button.hit') as HTMLElement | null)?.focus();
          }
        }}
      />
    </div>
  );
}
