// Status, inbox, team, label and sort: native selects, so they work with any keyboard and screen
// reader without extra code. An option holds text only: names show hidden characters as tokens
// (shared/text/untrusted-text.ts) and each option takes its own direction.
import { memo } from 'react';
import type { ListView, SortBy, StatusFilter } from '../conversations/view';
import { sortOptions, statusOptions } from '../conversations/view';
import type { Directory } from '../directory/use-directory';
import { visibleControls } from '../../../shared/text/untrusted-text';

/** Memoized: the list renders at every triage key, and a key changes none of the view's filters. */
export const FilterBar = memo(function FilterBar(props: { view: ListView; directory: Directory; onChange(patch: Partial<ListView>): void }) {
  const { view, directory, onChange } = props;
  const num = (v: string) => (v ? Number(v) : undefined);
  return (
    <div className="filters" role="group" aria-label="Filters">
      <label>
        <span>Status</span>
        <select value={view.status} onChange={(e) => onChange({ status: e.target.value as StatusFilter })}>
          {statusOptions.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Inbox</span>
        <select value={view.inboxId ?? ''} onChange={(e) => onChange({ inboxId: num(e.target.value) })}>
          <option value="">All inboxes</option>
          {directory.inboxes.map((i) => (
            <option key={i.id} value={i.id} dir="auto">
              {visibleControls(i.name)}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Team</span>
        <select value={view.teamId ?? ''} onChange={(e) => onChange({ teamId: num(e.target.value) })}>
          <option value="">All teams</option>
          {directory.teams.map((t) => (
            <option key={t.id} value={t.id} dir="auto">
              {visibleControls(t.name)}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Label</span>
        <select value={view.label ?? ''} onChange={(e) => onChange({ label: e.target.value || undefined })}>
          <option value="">All labels</option>
          {directory.labels.map((l) => (
            <option key={l.id} value={l.title} dir="auto">
              {visibleControls(l.title)}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Sort</span>
        <select value={view.sortBy} onChange={(e) => onChange({ sortBy: e.target.value as SortBy })}>
          {sortOptions.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
});
