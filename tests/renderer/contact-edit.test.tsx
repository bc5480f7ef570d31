// Editing a contact in the contact panel (issue 11, contacts): the change shows at once and goes
// through the outbox; a value the service refuses is shown next to its field in the service's
// words, the form reopens on the agent's attempt, and the correction lands; labels and notes the
// same way. Against the real bridge and the demo service.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation } from '../../shared/api/records';
import { saveConversations } from '../../renderer/src/db/save';
import { ContactPanel } from '../../renderer/src/screens/ContactPanel';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { demoBridge } from './support/demo-bridge';
import type { DemoBridge } from './support/demo-bridge';
import { agentConversations } from './support/outbox-harness';
import { renderWithSession } from './support/render';

let svc: DemoService;
let demo: DemoBridge;
beforeAll(async () => {
  svc = await demoService();
  demo = await demoBridge(svc);
});
afterAll(() => svc.close());

const serviceContact = (id: number) => svc.db.prepare('SELECT name, email FROM contacts WHERE id = ?').get(id) as { name: string; email: string | null };

describe('the contact panel', () => {
  it('edits the email: a refused value waits beside its field with the service\'s words; the correction lands; a note and a label land too', async () => {
    const [id] = agentConversations(svc, "c.status = 'open'", 1) as [number];
    const contactId = (svc.db.prepare('SELECT contact_id FROM conversations WHERE account_id = ? AND display_id = ?').get(svc.creds.accountId, id) as { contact_id: number }).contact_id;
    const got = await demo.bridge.call('conversations.get', { conversationId: id });
    if (!got.ok) throw new Error(got.error.message);
    const { db, inbox, rerenderWith } = renderWithSession(<div />, { bridge: demo.bridge, session: demo.session });
    await saveConversations(db, [got.value as Conversation]);
    rerenderWith(<ContactPanel conversation={(await db.conversations.get(id))!} />);
    await waitFor(async () => expect(await db.contacts.get(contactId)).toBeDefined());
    const before = serviceContact(contactId);
    void inbox.outbox.start();

    fireEvent.click(await screen.findByRole('button', { name: 'Edit contact' }));
    const form = screen.getByRole('form', { name: 'Edit contact' });
    fireEvent.change(within(form).getByLabelText('Email'), { target: { value: 'dana@@example' } });
    fireEvent.submit(form);
    // Refused by the service: its words, next to the field, and the service's value shows.
    const error = await screen.findByTestId('contact-field-error');
    expect(error.textContent).toMatch(/Not saved: email is invalid/);
    await waitFor(async () => expect((await db.contacts.get(contactId))?.email ?? null).toBe(before.email));
    expect(serviceContact(contactId).email).toBe(before.email);

    // The form reopens on the attempt, the field marked; the correction lands and the error goes.
    fireEvent.click(within(error).getByRole('button', { name: 'Correct it' }));
    const again = screen.getByRole('form', { name: 'Edit contact' });
    const email = within(again).getByLabelText('Email');
    expect((email as HTMLInputElement).value).toBe('dana@@example');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(email, { target: { value: `dana.${contactId}@example.com` } });
    fireEvent.submit(again);
    await waitFor(() => expect(serviceContact(contactId).email).toBe(`dana.${contactId}@example.com`));
    await waitFor(() => expect(screen.queryByTestId('contact-field-error')).toBeNull());
    expect(screen.getByRole('region', { name: 'Details' }).textContent).toContain(`dana.${contactId}@example.com`);

    // A note.
    fireEvent.change(screen.getByLabelText('Note about this contact (only your team sees it)'), { target: { value: 'Prefers a call after 5pm.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));
    await waitFor(() => expect(svc.db.prepare('SELECT COUNT(*) AS n FROM contact_notes WHERE contact_id = ? AND content = ?').get(contactId, 'Prefers a call after 5pm.')).toEqual({ n: 1 }));
    await waitFor(() => expect(screen.getAllByTestId('contact-note')[0]!.textContent).toMatch(/Prefers a call after 5pm\..*Delete/));

    // A label.
    fireEvent.click(screen.getByRole('button', { name: 'Change labels' }));
    const labels = screen.getByRole('form', { name: 'Change contact labels' });
    fireEvent.change(within(labels).getByLabelText('New label'), { target: { value: 'callback' } });
    fireEvent.submit(labels);
    await waitFor(() => expect(svc.db.prepare('SELECT title FROM contact_labels WHERE contact_id = ? AND title = ?').get(contactId, 'callback')).toBeDefined());
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Contact labels' })).getAllByRole('listitem').map((li) => li.textContent)).toContain('callback'));
    inbox.outbox.stop();
  }, 30_000);
});
