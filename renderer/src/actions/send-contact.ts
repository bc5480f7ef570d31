// How one claimed entry of a contact's lane goes (SYNC-PROTOCOL.md, "Contact writes"). Contacts have
// no revision to send with a write, so what protects a later change from an earlier one landing
// late is the lane itself: one request of unknown outcome per contact, and after one, nothing else
// for that contact until it can no longer land (the sender's quiet window). Every write is an end
// state, so sending one again lands in the same place:
// - details and attribute values: PATCH of the changed fields (the service merges attributes);
// - attributes removed: `destroy_custom_attributes`;
// - labels: the agent's additions and removals applied to the set the service has now (read first),
//   so a colleague's labels are kept;
// - a note: created with its client id as the idempotency key where the service honours it;
//   elsewhere, after an unknown outcome, looked for (the agent's note with the same text, newer
//   than the newest note held before the first attempt) before it goes again;
// - a note deleted: a note already gone is done.
// A refusal (422 naming a field) parks the change for the agent, with the service's words.
import type { Contact } from '../../../shared/api/contacts';
import type { BridgeError } from '../../../shared/bridge/result';
import type { OutboxEntry } from '../db/schema';
import { saveContact, saveContactNotes, showContactOnConversations } from '../db/save';
import type { ContactIntent } from '../model/contact-intent';
import { describeContactIntent } from '../model/contact-intent';
import { withLabelChange } from '../model/labels';
import type { SendCore } from './send-conversation';
import { keyTrusted } from './send-conversation';

type ContactCore = Pick<SendCore, 'db' | 'bridge' | 'now' | 'notify' | 'features' | 'handOver' | 'failed'>;

const intentOf = (entry: OutboxEntry) => entry.payload as ContactIntent;

/** Done: the entry stays a while as `confirmed` (answers asked before now may not show it), and the service's answer is stored. */
async function confirmContact(core: ContactCore, entry: OutboxEntry, contact?: Contact): Promise<void> {
  await core.db.outbox.update(entry.seq!, { state: 'confirmed', confirmedAt: core.now(), uncertain: false, lastError: undefined, lastErrorKind: undefined, lastErrorAttributes: undefined });
  if (contact) await showContactOnConversations(core.db, await saveContact(core.db, contact, core.now()));
}

/** Reads the contact (and its labels) back, as the service has it, with what is still queued on top. */
export async function readContact(core: Pick<SendCore, 'db' | 'bridge'>, contactId: number): Promise<void> {
  const at = Date.now();
  const [r, labels] = await Promise.all([core.bridge.call('contacts.get', { contactId }), core.bridge.call('contacts.labels', { contactId })]);
  if (!r.ok) return;
  const stored = await saveContact(core.db, { ...r.value.payload, ...(labels.ok ? { labels: labels.value.payload } : {}) }, at);
  await showContactOnConversations(core.db, stored);
}

async function readNotes(core: ContactCore, contactId: number) {
  const r = await core.bridge.call('contacts.notes', { contactId });
  if (r.ok) await saveContactNotes(core.db, contactId, r.value);
  return r;
}

export async function sendContact(core: ContactCore, entry: OutboxEntry): Promise<void> {
  const intent = intentOf(entry);
  const contactId = intent.contactId;
  switch (intent.op) {
    case 'fields': {
      const f = intent.fields;
      const sent = await core.handOver(entry, false);
      const r = await core.bridge.call('contacts.update', {
        contactId,
        ...(f.name === undefined ? {} : { name: f.name }),
        ...(f.email === undefined ? {} : { email: f.email }),
        ...(f.phone_number === undefined ? {} : { phoneNumber: f.phone_number }),
        ...(f.custom_attributes ? { customAttributes: f.custom_attributes } : {}),
      });
      return r.ok ? confirmContact(core, sent, r.value.payload) : core.failed(sent, r.error, true);
    }
    case 'removeAttributes': {
      const sent = await core.handOver(entry, false);
      const r = await core.bridge.call('contacts.removeAttributes', { contactId, keys: intent.keys });
      return r.ok ? confirmContact(core, sent, r.value.payload) : core.failed(sent, r.error, true);
    }
    case 'labels': {
      const current = await core.bridge.call('contacts.labels', { contactId });
      if (!current.ok) return core.failed(entry, current.error, false);
      const labels = withLabelChange(current.value.payload, intent.change);
      const cached = await core.db.contacts.get(contactId);
      if (labels.join('\n') === [...current.value.payload].sort().join('\n')) {
        // Already so (another agent did it, or an earlier attempt of ours landed).
        return confirmContact(core, entry, cached ? { ...cached, labels } : undefined);
      }
      const sent = await core.handOver(entry, false);
      const r = await core.bridge.call('contacts.setLabels', { contactId, labels });
      return r.ok ? confirmContact(core, sent, cached ? { ...cached, labels: r.value.payload } : undefined) : core.failed(sent, r.error, true);
    }
    case 'noteCreate':
      return sendNote(core, entry, intent);
    case 'noteDelete': {
      // A delete arriving late cannot undo anything later (a note never comes back): nothing to wait for.
      const sent = await core.handOver(entry, true);
      const r = await core.bridge.call('contacts.deleteNote', { contactId, noteId: intent.noteId });
      if (r.ok || r.error.kind === 'not_found') {
        await core.db.contactNotes.delete(intent.noteId);
        return confirmContact(core, sent);
      }
      return core.failed(sent, r.error, true);
    }
  }
}

async function sendNote(core: ContactCore, entry: OutboxEntry, intent: Extract<ContactIntent, { op: 'noteCreate' }>): Promise<void> {
  const contactId = intent.contactId;
  if (entry.afterId === undefined) {
    // The newest note before the first attempt: after an unknown outcome, only newer ones can be it.
    const r = await readNotes(core, contactId);
    if (!r.ok) return core.failed(entry, r.error, false);
    entry.afterId = Math.max(0, ...r.value.map((n) => n.id));
    await core.db.outbox.update(entry.seq!, { afterId: entry.afterId });
  }
  if (entry.uncertain) {
    const r = await readNotes(core, contactId);
    if (!r.ok) return core.failed(entry, r.error, false);
    const found = r.value.find((n) => n.id > (entry.afterId ?? 0) && n.user?.id === intent.authorId && n.content.trim() === intent.content.trim());
    if (found) return confirmContact(core, entry);
    if (!keyTrusted(core, entry)) {
      await core.db.outbox.update(entry.seq!, { uncertain: false });
      entry.uncertain = false;
    }
  }
  const features = await core.features();
  const sent = await core.handOver(entry, features.idempotencyKey);
  const r = await core.bridge.call('contacts.createNote', { contactId, content: intent.content, clientId: entry.clientId });
  if (!r.ok) return core.failed(sent, r.error, true);
  await core.db.contactNotes.put({ ...r.value, contactId });
  return confirmContact(core, sent);
}

/** The contact's name for a sentence about it. */
const contactName = (entry: OutboxEntry) => entry.contactBefore?.name || 'the contact';

/**
 * The service refused a contact change: the details, an attribute or a note wait for the agent
 * with the service's words (the form shows them next to the field named); a label change or a
 * note deletion is dropped. Either way the contact is read again, so what shows is the service's.
 */
export async function refuseContactEntry(core: ContactCore, entry: OutboxEntry, error: BridgeError): Promise<void> {
  const intent = intentOf(entry);
  const parks = intent.op === 'fields' || intent.op === 'removeAttributes' || intent.op === 'noteCreate';
  if (parks) {
    await core.db.outbox.update(entry.seq!, { state: 'failed', lastError: error.message, lastErrorKind: error.kind, lastErrorAttributes: error.attributes ?? [], uncertain: false });
  } else {
    await core.db.outbox.delete(entry.seq!);
  }
  core.notify(`Could not ${describeContactIntent(intent)} ${contactName(entry)}: ${error.message}`);
  await readContact(core, intent.contactId);
  if (intent.op === 'noteDelete' || intent.op === 'noteCreate') await readNotes(core, intent.contactId);
}
