// Mine / Unassigned / All, with the service's counts for the current status and filters (the
// counts ignore the assignee tab, so all three show side by side).
import { memo } from 'react';
import type { ConversationCounts } from '../../../shared/api/records';
import type { AssigneeTab } from '../conversations/view';
import { tabOptions } from '../conversations/view';

/** Memoized, as the filters and the sync banner beside it: the list renders at every triage key (twice: the row leaving, the cursor moving on), and these show nothing a key changes. */
export const ListTabs = memo(function ListTabs(props: { tab: AssigneeTab; counts: ConversationCounts | undefined; onChange(tab: AssigneeTab): void }) {
  const move = (delta: number) => {
    const i = tabOptions.findIndex((t) => t.value === props.tab);
    const next = tabOptions[(i + delta + tabOptions.length) % tabOptions.length]!;
    props.onChange(next.value);
    document.getElementById(`tab-${next.value}`)?.focus();
  };
  return (
    <div role="tablist" aria-label="Assignee" className="tabs">
      {tabOptions.map((t) => {
        const count = props.counts?.[t.countKey];
        return (
          <button
            key={t.value}
            id={`tab-${t.value}`}
            type="button"
            role="tab"
            aria-selected={props.tab === t.value}
            aria-controls="conversation-listbox"
            tabIndex={props.tab === t.value ? 0 : -1}
            className="tab"
            onClick={() => props.onChange(t.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowRight') move(1);
              else if (e.key === 'ArrowLeft') move(-1);
              else return;
              e.preventDefault();
            }}
          >
            {t.label}
            <span className="count" data-testid={`count-${t.value}`}>
              {count ?? '–'}
            </span>
          </button>
        );
      })}
    </div>
  );
});
