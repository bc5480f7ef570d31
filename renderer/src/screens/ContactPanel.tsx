// The contact beside the conversation, laid out: details and custom attributes (editable), the
// contact's own labels, notes for the team, and its previous conversations. Data and changes come
// from `useContact` (contacts/use-contact.ts); every change goes through the outbox.
import { Avatar } from '../components/Avatar';
import { ContactDetails } from '../components/ContactDetails';
import { ContactLabels } from '../components/ContactLabels';
import { ContactNotes } from '../components/ContactNotes';
import { UntrustedText } from '../components/UntrustedText';
import { useContact } from '../contacts/use-contact';
import type { CachedConversation } from '../db/schema';
import { useDirectory } from '../directory/use-directory';
import { useUi } from '../state/ui';

export function ContactPanel({ conversation }: { conversation: CachedConversation }) {
  const select = useUi((s) => s.select);
  const showPane = useUi((s) => s.showPane);
  const editRequest = useUi((s) => s.contactEdit);
  const directory = useDirectory();
  const state = useContact(conversation);
  const { contact } = state;
  return (
    <aside className="contact-panel" aria-label="Contact details">
      <header className="pane-header">
        {/* Shown only where the panel takes the conversation's place (styles.css): the way back to it. */}
        <button type="button" className="contact-back" onClick={() => showPane('conversation')} aria-label="Back to the conversation" aria-keyshortcuts="i">
          ← Conversation
        </button>
        <Avatar name={contact.name ?? '?'} contactId={conversation.contactId} hasPicture={Boolean(contact.thumbnail)} size="large" />
        <h2>{contact.name ? <UntrustedText text={contact.name} /> : 'Unknown contact'}</h2>
        {contact.blocked && <span className="chip status-resolved">Blocked</span>}
      </header>
      <ContactDetails state={state} editRequest={editRequest} />
      <ContactLabels state={state} known={directory.labels} />
      <ContactNotes state={state} />
      <section aria-labelledby="previous-conversations">
        <h3 id="previous-conversations">Conversations</h3>
        <ul className="previous">
          {state.previous.map((c) => (
            <li key={c.id}>
              <button type="button" className="link-button" aria-current={c.id === conversation.id ? 'true' : undefined} onClick={() => select(c.id)}>
                <span>#{c.id}</span> <span className={`chip status-${c.status}`}>{c.status}</span> <span className="preview">
                  <UntrustedText text={c.preview} context="prose" />
                </span>
              </button>
            </li>
          ))}
        </ul>
      </section>
    </aside>
  );
}
