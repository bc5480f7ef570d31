// The contact's details and custom attributes: read, and edited in place (name, email, phone number,
// attribute values, attributes added and removed). Saving queues the change through the outbox, so
// it shows at once and goes when the service can be reached. A change the service refused stays
// beside the field it named, in the service's words, until the agent corrects or discards it.
import { useEffect, useRef, useState } from 'react';
import type { Contact } from '../../../shared/api/contacts';
import type { ContactState, FieldError } from '../contacts/use-contact';
import type { AttributeValue, ContactFieldChange } from '../model/contact-intent';
import { relativeTime } from './time';
import { UntrustedText } from './UntrustedText';

const text = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** What the agent typed, in the type the attribute had (a number stays a number, yes/no a boolean). */
function typed(raw: string, was: unknown): AttributeValue {
  if (typeof was === 'number' && raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
  if (typeof was === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

function ErrorNote({ error, id, onEdit, onDiscard }: { error: FieldError | undefined; id: string; onEdit?(): void; onDiscard(seq: number): void }) {
  if (!error) return null;
  return (
    <p className="field-error" id={id} role="alert" data-testid="contact-field-error">
      <span>Not saved: </span>
      <UntrustedText text={error.message} />{' '}
      {onEdit && (
        <button type="button" className="link-button" onClick={onEdit}>
          Correct it
        </button>
      )}{' '}
      <button type="button" className="link-button" onClick={() => onDiscard(error.seq)}>
        Discard
      </button>
    </p>
  );
}

interface Draft {
  name: string;
  email: string;
  phone: string;
  attributes: [string, string][];
  removed: string[];
  newKey: string;
  newValue: string;
}

function draftOf(contact: Partial<Contact>, errors: Record<string, FieldError>): Draft {
  // A refused attempt is where the agent left off: the form starts from it.
  const tried = Object.values(errors)[0];
  const attempted: ContactFieldChange = tried?.attempted ?? {};
  const attributes = { ...contact.custom_attributes, ...attempted.custom_attributes };
  return {
    name: attempted.name ?? contact.name ?? '',
    email: attempted.email === undefined ? (contact.email ?? '') : (attempted.email ?? ''),
    phone: attempted.phone_number === undefined ? (contact.phone_number ?? '') : (attempted.phone_number ?? ''),
    attributes: Object.entries(attributes).map(([k, v]) => [k, text(v)]),
    removed: tried?.removed ?? [],
    newKey: '',
    newValue: '',
  };
}

function ContactForm({ state, onDone }: { state: ContactState; onDone(): void }) {
  const { contact, errors } = state;
  const [d, setD] = useState(() => draftOf(contact, errors));
  const [problem, setProblem] = useState<string>();
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));
  const described = (field: string) => (errors[field] ? { 'aria-invalid': true, 'aria-describedby': `contact-error-${field}` } : {});
  const submit = async () => {
    const attributes: Record<string, AttributeValue> = {};
    for (const [k, v] of d.attributes) if (!d.removed.includes(k)) attributes[k] = typed(v, contact.custom_attributes?.[k]);
    const key = d.newKey.trim();
    if (key) attributes[key] = d.newValue;
    else if (d.newValue.trim()) return setProblem('A new attribute needs a name.');
    const change: ContactFieldChange = { name: d.name.trim(), email: d.email.trim() || null, phone_number: d.phone.trim() || null, custom_attributes: attributes };
    try {
      await state.save(change, d.removed.filter((k) => k in (contact.custom_attributes ?? {})));
      onDone();
    } catch {
      setProblem('The change could not be saved on this computer. Nothing was sent.');
    }
  };
  return (
    <form
      className="contact-form"
      aria-label="Edit contact"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onDone();
        }
      }}
    >
      <label>
        Name <input ref={first} value={d.name} onChange={(e) => set({ name: e.target.value })} {...described('name')} />
      </label>
      <label>
        Email <input type="email" value={d.email} onChange={(e) => set({ email: e.target.value })} {...described('email')} />
      </label>
      <ErrorNote error={errors.email} id="contact-error-email" onDiscard={state.discard} />
      <label>
        Phone <input type="tel" value={d.phone} placeholder="+15550100" onChange={(e) => set({ phone: e.target.value })} {...described('phone_number')} />
      </label>
      <ErrorNote error={errors.phone_number} id="contact-error-phone_number" onDiscard={state.discard} />
      <ErrorNote error={errors.name} id="contact-error-name" onDiscard={state.discard} />
      <fieldset>
        <legend>Custom attributes</legend>
        {d.attributes.map(([k, v], i) => {
          const gone = d.removed.includes(k);
          return (
            <div key={k} className={`attribute-row${gone ? ' removed' : ''}`}>
              <label>
                <UntrustedText text={k} />{' '}
                <input value={v} disabled={gone} onChange={(e) => set({ attributes: d.attributes.map((a, j) => (j === i ? [k, e.target.value] : a)) })} {...described('custom_attributes')} />
              </label>
              <button type="button" className="link-button" aria-pressed={gone} onClick={() => set({ removed: gone ? d.removed.filter((x) => x !== k) : [...d.removed, k] })}>
                {gone ? 'Keep' : 'Remove'}
              </button>
            </div>
          );
        })}
        <div className="attribute-row">
          <label>
            New attribute <input value={d.newKey} placeholder="name" onChange={(e) => set({ newKey: e.target.value })} />
          </label>
          <label>
            Value <input value={d.newValue} onChange={(e) => set({ newValue: e.target.value })} />
          </label>
        </div>
        <ErrorNote error={errors.custom_attributes} id="contact-error-custom_attributes" onDiscard={state.discard} />
      </fieldset>
      <ErrorNote error={errors.base} id="contact-error-base" onDiscard={state.discard} />
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <div className="actions">
        <button type="submit">Save</button>
        <button type="button" className="link-button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function ContactDetails({ state, editRequest }: { state: ContactState; editRequest?: number }) {
  const [editing, setEditing] = useState(false);
  const seen = useRef(editRequest);
  useEffect(() => {
    if (editRequest !== undefined && editRequest !== seen.current) setEditing(true);
    seen.current = editRequest;
  }, [editRequest]);
  const { contact, errors } = state;
  const extra = contact.additional_attributes ?? {};
  const details: [string, string, string | undefined][] = (
    [
      ['Email', text(contact.email), 'email'],
      ['Phone', text(contact.phone_number), 'phone_number'],
      ['Identifier', text(contact.identifier), undefined],
      ['Company', text(extra.company_name), undefined],
      ['City', text(extra.city), undefined],
      ['Last seen', contact.last_activity_at ? relativeTime(contact.last_activity_at) : '', undefined],
    ] as [string, string, string | undefined][]
  ).filter(([, v, field]) => v || (field && errors[field]));
  const custom = Object.entries(contact.custom_attributes ?? {});
  const edit = () => setEditing(true);
  if (editing) return <ContactForm state={state} onDone={() => setEditing(false)} />;
  return (
    <>
      <section aria-labelledby="contact-details">
        <h3 id="contact-details">Details</h3>
        <button type="button" className="link-button section-action" onClick={edit} disabled={!state.contactId}>
          Edit contact
        </button>
        {state.saving > 0 && (
          <p className="muted" role="status" data-testid="contact-saving">
            Saving {state.saving} {state.saving === 1 ? 'change' : 'changes'}… (they go when the service can be reached)
          </p>
        )}
        {state.notCached && (
          <p className="muted" role="note" data-testid="contact-not-cached">
            The rest of this contact&apos;s details are not on this computer yet. They load when the service can be reached.
          </p>
        )}
        {details.length ? (
          <dl>
            {details.map(([k, v, field]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>
                  <UntrustedText text={v} />
                  {field && <ErrorNote error={errors[field]} id={`contact-view-error-${field}`} onEdit={edit} onDiscard={state.discard} />}
                </dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="muted">No details.</p>
        )}
        <ErrorNote error={errors.name ?? errors.base} id="contact-view-error-name" onEdit={edit} onDiscard={state.discard} />
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
        <ErrorNote error={errors.custom_attributes} id="contact-view-error-attributes" onEdit={edit} onDiscard={state.discard} />
      </section>
    </>
  );
}
