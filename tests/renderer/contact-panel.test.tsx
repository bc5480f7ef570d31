// The contact panel: the contact's details and custom attributes, the contact's own labels (read
// from the service, kept in the cache), and its previous conversations.
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation } from '../../shared/api/records';
import { saveConversations } from '../../renderer/src/db/save';
import { ContactPanel } from '../../renderer/src/screens/ContactPanel';
import { demoService } from '../support/demo-service';
import type { DemoService } from '../support/demo-service';
import { demoBridge } from './support/demo-bridge';
import type { DemoBridge } from './support/demo-bridge';
import { renderWithSession } from './support/render';

let svc: DemoService;
let demo: DemoBridge;
beforeAll(async () => {
  svc = await demoService();
  demo = await demoBridge(svc);
});
afterAll(() => svc.close());

describe('ContactPanel', () => {
  it("shows the contact's labels from the service, not the conversation's, and keeps them in the cache", async () => {
    // A conversation the agent can see, whose contact carries labels of its own.
    const row = svc.db
      .prepare(
        `SELECT c.display_id AS id, c.contact_id AS contactId FROM conversations c JOIN inbox_members m ON m.inbox_id = c.inbox_id
         JOIN users u ON u.id = m.user_id AND u.email = 'sam@acme.example'
         WHERE c.account_id = ? AND EXISTS (SELECT 1 FROM contact_labels l WHERE l.contact_id = c.contact_id) LIMIT 1`,
      )
      .get(svc.creds.accountId) as { id: number; contactId: number };
    const contactLabels = (svc.db.prepare('SELECT title FROM contact_labels WHERE contact_id = ? ORDER BY title').all(row.contactId) as { title: string }[]).map((l) => l.title);
    const got = await demo.bridge.call('conversations.get', { conversationId: row.id });
    if (!got.ok) throw new Error(got.error.message);
    const record = got.value as Conversation;
    // Make the difference visible: the conversation's labels are not the contact's.
    expect(record.labels).not.toEqual(contactLabels);

    const { db } = renderWithSession(<div />, { bridge: demo.bridge, session: demo.session });
    await saveConversations(db, [record]);
    const cached = (await db.conversations.get(row.id))!;
    renderWithSession(<ContactPanel conversation={cached} />, { bridge: demo.bridge, session: demo.session });

    const section = await screen.findByRole('region', { name: 'Contact labels' });
    await waitFor(() => expect(within(section).queryAllByRole('listitem').map((li) => li.textContent)).toEqual(contactLabels));
    await waitFor(async () => expect((await db.contacts.get(row.contactId))?.labels).toEqual(contactLabels));
  });
});
