// The contact's own labels (not the conversation's): read, and changed in a small form (tick and
// untick, or add a new one). Only what the agent changed goes, applied to whatever set the service
// has then, so a colleague's labels are kept.
import { useState } from 'react';
import type { ContactState } from '../contacts/use-contact';
import type { Label } from '../../../shared/api/directory';
import { UntrustedText } from './UntrustedText';

function LabelsForm({ current, known, onSave, onDone }: { current: string[]; known: Label[]; onSave(change: { add: string[]; remove: string[] }): Promise<unknown>; onDone(): void }) {
  const titles = [...new Set([...known.map((l) => l.title), ...current])].sort();
  const [ticked, setTicked] = useState(() => new Set(current));
  const [fresh, setFresh] = useState('');
  const save = async () => {
    const added = fresh.trim().toLowerCase();
    const want = new Set([...ticked, ...(added ? [added] : [])]);
    await onSave({ add: [...want].filter((l) => !current.includes(l)), remove: current.filter((l) => !want.has(l)) });
    onDone();
  };
  return (
    <form
      className="contact-labels-form"
      aria-label="Change contact labels"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onDone();
        }
      }}
    >
      <ul className="plain label-ticks">
        {titles.map((t) => (
          <li key={t}>
            <label>
              <input type="checkbox" checked={ticked.has(t)} onChange={(e) => setTicked((s) => (e.target.checked ? new Set([...s, t]) : new Set([...s].filter((x) => x !== t))))} />{' '}
              <UntrustedText text={t} />
            </label>
          </li>
        ))}
      </ul>
      <label>
        New label <input value={fresh} onChange={(e) => setFresh(e.target.value)} />
      </label>
      <div className="actions">
        <button type="submit">Save labels</button>
        <button type="button" className="link-button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function ContactLabels({ state, known }: { state: ContactState; known: Label[] }) {
  const [editing, setEditing] = useState(false);
  const labels = state.cached?.labels ?? [];
  return (
    <section aria-labelledby="contact-labels">
      <h3 id="contact-labels">Contact labels</h3>
      {!editing && (
        <button type="button" className="link-button section-action" onClick={() => setEditing(true)} disabled={!state.cached}>
          Change labels
        </button>
      )}
      {editing ? (
        <LabelsForm current={labels} known={known} onSave={state.changeLabels} onDone={() => setEditing(false)} />
      ) : labels.length ? (
        <ul className="chips plain">
          {labels.map((l) => (
            <li key={l} className="chip label">
              <UntrustedText text={l} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No labels.</p>
      )}
    </section>
  );
}
