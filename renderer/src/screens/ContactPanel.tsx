// The contact beside the conversation: details, custom attributes, the contact's labels and its
// previous conversations. From the cache first (the conversation's embedded sender
// until the contact itself is cached), then refreshed from the service.
import { Avatar } from '../components/Avatar';
import { useQuery } from '@tanstack/react-query';
import { useLiveQuery } from 'dexie-react-hooks';
import type { Contact } from '../../../shared/api/contacts';
import { relativeTime } from '../components/time';
import type { CachedConversation } from '../db/schema';
import { saveContact, saveConversations } from '../db/save';
import { callOrThrow, isUnreachable } from '../platform/call';
import { useSession } from '../platform/session';
import { useUi } from '../state/ui';
import { UntrustedText } from '../components/UntrustedText';

const text = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

export function ContactPanel({ conversation }: { conversation: CachedConversation }) {
  const { bridge, db } = useSession();
  const select = useUi((s) => s.select);
  const showPane = useUi((s) => s.showPane);
  const contactId = conversation.contactId;
  const cached = useLiveQuery(() => (contactId ? db.contacts.get(contactId) : undefined), [db, contactId]);
  const previous = useLiveQuery(
    async () => (contactId ? (await db.conversations.where('contactId').equals(contactId).toArray()).sort((a, b) => b.lastActivityAt - a.lastActivityAt) : []),
    [db, contactId],
  );
  const fetched = useQuery({
    queryKey: ['contact', db.name, contactId],
    enabled: contactId > 0,
    queryFn: async () => {
      // The record does not carry the contact's labels; both are saved together.
      const [r, labels] = await Promise.all([callOrThrow(bridge, 'contacts.get', { contactId }), callOrThrow(bridge, 'contacts.labels', { contactId })]);
      await saveContact(db, { ...r.payload, labels: labels.payload });
      return true;
    },
  });
  useQuery({
    queryKey: ['contact-conversations', db.name, contactId],
    enabled: contactId > 0,
    queryFn: async () => {
      const askedAt = Date.now();
      const r = await callOrThrow(bridge, 'contacts.conversations', { contactId });
      await saveConversations(db, r.payload, askedAt);
      return true;
    },
  });

  const contact: Partial<Contact> = cached ?? { name: conversation.contactName, email: conversation.contactEmail || null };
  // Only the name and email the conversation carries are here, and the service cannot be reached: say so.
  const notCached = cached === undefined && isUnreachable(fetched.error);
  const extra = contact.additional_attributes ?? {};
  const details: [string, string][] = (
    [
      ['Email', text(contact.email)],
      ['Phone', text(contact.phone_number)],
      ['Identifier', text(contact.identifier)],
      ['Company', text(extra.company_name)],
      ['City', text(extra.city)],
      ['Last seen', contact.last_activity_at ? relativeTime(contact.last_activity_at) : ''],
    ] as [string, string][]
  ).filter(([, v]) => v);
  const custom = Object.entries(contact.custom_attributes ?? {});

  return (
    <aside className="contact-panel" aria-label="Contact details">
      <header className="pane-header">
        {/* Shown only where the panel takes the conversation's place (styles.css): the way back to it. */}
        <button type="button" className="contact-back" onClick={() => showPane('conversation')} aria-label="Back to the conversation" aria-keyshortcuts="i">
          ← Conversation
        </button>
        <Avatar name={contact.name ?? '?'} contactId={contactId} hasPicture={Boolean(contact.thumbnail)} size="large" />
        <h2>{contact.name ? <UntrustedText text={contact.name} /> : 'Unknown contact'}</h2>
        {contact.blocked && <span className="chip status-resolved">Blocked</span>}
      </header>
      <section aria-labelledby="contact-details">
        <h3 id="contact-details">Details</h3>
        {notCached && (
          <p className="muted" role="note" data-testid="contact-not-cached">
            The rest of this contact&apos;s details are not on this computer yet. They load when the service can be reached.
          </p>
        )}
        {details.length ? (
          <dl>
            {details.map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>
                  <UntrustedText text={v} />
                </dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="muted">No details.</p>
        )}
      </section>
      <section aria-labelledby="contact-attributes">
        <h3 id="contact-attributes">Custom attributes</h3>
        {custom.length ? (
          <dl>
            {custom.map(([k, v]) => (
              <div key={k}>
                <dt>
                  <UntrustedText text={k} />
                </dt>
                <dd>
                  <UntrustedText text={text(v)} />
                </dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="muted">None.</p>
        )}
      </section>
      <section aria-labelledby="contact-labels">
        <h3 id="contact-labels">Contact labels</h3>
        {cached?.labels?.length ? (
          <ul className="chips plain">
            {cached.labels.map((l) => (
              <li key={l} className="chip label">
                <UntrustedText text={l} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No labels.</p>
        )}
      </section>
      <section aria-labelledby="previous-conversations">
        <h3 id="previous-conversations">Conversations</h3>
        <ul className="previous">
          {previous?.map((c) => (
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
