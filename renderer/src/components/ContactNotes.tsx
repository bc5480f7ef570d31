// Notes on the contact, for the team (never shown to the contact): listed newest first, added and
// deleted through the outbox. A note still on its way says so; one the service refused says why,
// with Retry and Discard.
import { useState } from 'react';
import type { ContactState } from '../contacts/use-contact';
import { fullTime, relativeTime } from './time';
import { UntrustedText } from './UntrustedText';

export function ContactNotes({ state }: { state: ContactState }) {
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string>();
  const add = async () => {
    if (!draft.trim()) return;
    try {
      await state.addNote(draft);
      setDraft('');
      setProblem(undefined);
    } catch {
      setProblem('The note could not be saved on this computer. Your text is kept.');
    }
  };
  return (
    <section aria-labelledby="contact-notes">
      <h3 id="contact-notes">Notes</h3>
      <form
        className="note-form"
        aria-label="Add a note about this contact"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <label className="visually-hidden" htmlFor="contact-note-input">
          Note about this contact (only your team sees it)
        </label>
        <textarea id="contact-note-input" rows={2} value={draft} placeholder="Add a note… (only your team sees it)" onChange={(e) => setDraft(e.target.value)} />
        <button type="submit" disabled={!draft.trim() || !state.contactId}>
          Add note
        </button>
        {problem && (
          <p className="error" role="alert">
            {problem}
          </p>
        )}
      </form>
      {state.notesUnavailable && <p className="muted">The notes are not on this computer yet. They load when the service can be reached.</p>}
      <ul className="notes plain" aria-label="Notes about this contact">
        {state.notes.map((n) => (
          <li key={n.key} className={`note${n.pending ? ' unsent' : ''}${n.deleting ? ' deleting' : ''}`} data-testid="contact-note">
            <div className="note-text">
              <UntrustedText text={n.note?.content ?? n.pending?.content ?? ''} context="prose" />
            </div>
            <div className="note-meta muted">
              {n.note ? (
                <>
                  <UntrustedText text={n.note.user?.available_name || n.note.user?.name || 'An agent'} />
                  {' · '}
                  <time dateTime={new Date(n.note.created_at * 1000).toISOString()} title={fullTime(n.note.created_at)}>
                    {relativeTime(n.note.created_at)}
                  </time>
                  {n.deleting ? (
                    ' · Deleting…'
                  ) : (
                    <>
                      {' '}
                      <button type="button" className="link-button" onClick={() => void state.deleteNote(n.note!.id)}>
                        Delete
                      </button>
                    </>
                  )}
                </>
              ) : n.pending?.error ? (
                <span className="error">
                  Not saved: <UntrustedText text={n.pending.error} />{' '}
                  <button type="button" className="link-button" onClick={() => void state.retry(n.pending!.seq)}>
                    Retry
                  </button>{' '}
                  <button type="button" className="link-button" onClick={() => void state.discard(n.pending!.seq)}>
                    Discard
                  </button>
                </span>
              ) : (
                'Saving…'
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
