// Untrusted text is isolated wherever it is shown (outside security review, finding 2: a contact
// named `Invoice\u202Efdp.exe` read "Invoiceexe.pdf" in the list, the header and the contact
// panel, and the same in message bodies and custom attributes). Every attack string of the corpus
// is rendered in every place that shows contact- or network-supplied text. Names, emails, file
// names, attributes: inside a `<bdi dir="auto">`, every bidi and invisible character shown as a
// labelled token (`⟨U+202E⟩`). Message text: every block `dir="auto"`, the characters that
// reorder letters shown as tokens. Notifications: none of them at all.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../shared/api/live-events';
import type { Message } from '../../shared/api/records';
import { messageSchema } from '../../shared/api/records';
import type { ChooseAccount } from '../../shared/bridge/calls/session';
import { hasHiddenCharacters, textPieces, visibleControls } from '../../shared/text/untrusted-text';
import type { TextContext } from '../../shared/text/untrusted-text';
import { ConversationHeader } from '../../renderer/src/components/ConversationHeader';
import { ConversationRow } from '../../renderer/src/components/ConversationRow';
import { MessageBubble } from '../../renderer/src/components/MessageBubble';
import { PickerDialog } from '../../renderer/src/components/PickerDialog';
import { SyncBanner } from '../../renderer/src/components/SyncBanner';
import { BridgeFailure } from '../../renderer/src/platform/call';
import { SessionSwitcher } from '../../renderer/src/components/SessionSwitcher';
import { TypingIndicator } from '../../renderer/src/components/TypingIndicator';
import { toCachedConversation } from '../../renderer/src/model/normalize';
import { sessionDbName } from '../../renderer/src/client/inbox-client';
import { InboxDb } from '../../renderer/src/db/schema';
import type { Directory } from '../../renderer/src/directory/use-directory';
import { classify } from '../../renderer/src/notifications/classify';
import { defaultSettings } from '../../renderer/src/notifications/settings';
import { typingLine, useTyping } from '../../renderer/src/live/typing';
import { savedSessionDetail } from '../../renderer/src/platform/saved-sessions';
import { AccountPicker } from '../../renderer/src/screens/AccountPicker';
import { ContactPanel } from '../../renderer/src/screens/ContactPanel';
import { SearchResults } from '../../renderer/src/screens/SearchResults';
import { ALL_HIDDEN, ATTACKS, LEGITIMATE } from '../support/bidi-corpus';
import { fakeBridge } from './fake-bridge';
import { conv } from './fixtures';
import { renderWithSession, silentBridge, testSession } from './support/render';

const dbForSession = (id: string) => new InboxDb(sessionDbName(id));

afterEach(() => {
  cleanup();
  useTyping.getState().clear();
});

const CORPUS = [...ATTACKS.map((a) => a.text), ...LEGITIMATE];
const noop = () => undefined;
const tokensIn = (text: string, context: TextContext) => textPieces(text, context).filter((p) => !('text' in p)).length;

/** `text` is shown isolated, in a `<bdi dir="auto">`, with each hidden character as a labelled token. */
function expectIsolated(root: ParentNode, text: string, context: TextContext = 'name') {
  const shown = visibleControls(text, context);
  const bdis = [...root.querySelectorAll('bdi')].filter((b) => b.textContent === shown);
  expect(bdis.length, `a <bdi> showing ${JSON.stringify(shown)} in ${JSON.stringify((root as Element).textContent ?? '')}`).toBeGreaterThan(0);
  for (const bdi of bdis) {
    expect(bdi.getAttribute('dir')).toBe('auto');
    const tokens = [...bdi.querySelectorAll('.control-char')];
    expect(tokens).toHaveLength(tokensIn(text, context));
    for (const t of tokens) expect(t.getAttribute('aria-label')).toMatch(/^hidden character: .+ \(U\+[0-9A-F]{4,}\)$/);
  }
}

/** No character that could hide or reorder anything is left raw in what the agent reads. */
function expectNoRawControls(root: Element, context: TextContext = 'name') {
  expect(hasHiddenCharacters(root.textContent ?? '', context), JSON.stringify(root.textContent)).toBe(false);
}

const directory = (name: string): Directory => ({ inboxes: [{ id: 1, name } as Directory['inboxes'][number]], agents: [], teams: [], labels: [], cannedResponses: [] });

function cachedWith(text: string) {
  const c = toCachedConversation(conv(7, { contact: { id: 70, name: text }, preview: text, labels: [text.slice(0, 200) || 'x'] }));
  return { ...c, assigneeName: text };
}

describe('the attack corpus in every place untrusted text is shown', () => {
  it('the conversation list row: contact name, preview, inbox, assignee, labels', () => {
    for (const text of CORPUS) {
      const c = cachedWith(text);
      const { container, unmount } = render(
        <ConversationRow c={c} directory={directory(text)} showStatus active={false} open={false} checked={false} selecting={false} index={0} count={1} onOpen={noop} start={0} height={66} />,
      );
      expectIsolated(container.querySelector('.contact')!, text);
      expectIsolated(container.querySelector('.preview')!, c.preview, 'prose');
      expectIsolated(container.querySelector('.inbox-name')!, text);
      expectIsolated(container.querySelector('.assignee')!, text);
      expectIsolated(container.querySelector('.label')!, c.labels[0]!);
      expectNoRawControls(container.querySelector('.row-top')!);
      unmount();
    }
  });

  it('the conversation header and the conversation\'s accessible name', () => {
    for (const text of CORPUS) {
      const c = cachedWith(text);
      const actions = { back: noop, setStatus: noop, markUnread: noop, open: noop, toggleContact: noop };
      const { container, unmount } = render(<ConversationHeader id={7} name={text} conversation={c} record={undefined} contactExpanded={false} actions={actions} meId={2} />);
      expectIsolated(container.querySelector('h2')!, text);
      expectIsolated(container.querySelector('[data-testid="conversation-assignee"]')!, text);
      expectNoRawControls(container);
      unmount();
    }
  });

  it('the contact panel: name, details, custom attribute keys and values, labels, notes and their authors, previous conversations', async () => {
    for (const text of CORPUS) {
      const c = cachedWith(text);
      const session = testSession();
      const db = dbForSession(session.id);
      await db.contacts.put({
        id: 70,
        name: text,
        email: `${text}@example.com`,
        phone_number: text,
        identifier: text,
        thumbnail: null,
        blocked: false,
        availability_status: null,
        additional_attributes: { company_name: text, city: text },
        custom_attributes: { [`key ${text}`]: text, plan: `pro ${text}` },
        last_activity_at: null,
        created_at: 1,
        labels: [text],
      });
      await db.conversations.put(c);
      await db.contactNotes.put({ id: 1, contactId: 70, content: `note ${text}`, user: { id: 9, name: text }, created_at: 1, updated_at: 1 });
      const panel = renderWithSession(<ContactPanel conversation={c} />, { bridge: silentBridge, session });
      const aside = panel.container.querySelector('aside')!;
      await waitFor(() => expect(aside.querySelectorAll('dd').length).toBeGreaterThan(3));
      await waitFor(() => expect(aside.querySelector('.previous li')).not.toBeNull());
      expectIsolated(aside.querySelector('h2')!, text);
      for (const shown of [`${text}@example.com`, `key ${text}`, `pro ${text}`]) expectIsolated(aside, shown);
      expectIsolated(aside.querySelector('#contact-details')!.parentElement!, text);
      expectIsolated(aside.querySelector('#contact-attributes')!.parentElement!, text);
      expectIsolated(aside.querySelector('#contact-labels')!.parentElement!, text);
      await waitFor(() => expect(aside.querySelector('.notes li')).not.toBeNull());
      expectIsolated(aside.querySelector('.notes .note-text')!, `note ${text}`, 'prose');
      expectIsolated(aside.querySelector('.notes .note-meta')!, text);
      expectIsolated(aside.querySelector('.previous')!, c.preview, 'prose');
      expectNoRawControls(aside.querySelector('header')!);
      for (const dl of aside.querySelectorAll('dl')) expectNoRawControls(dl);
      panel.unmount();
    }
  });

  it('a message: sender, body (markdown), activity line, attachment file names, accessible name', () => {
    for (const attack of ATTACKS) {
      const text = attack.text;
      const m: Message = messageSchema.parse({
        id: 1,
        content: `Please open ${text} today.\n\n- item ${text}\n\n> quote ${text}\n\n\`code ${text}\``,
        conversation_id: 7,
        message_type: 0,
        created_at: 1,
        sender: { id: 70, name: text, type: 'contact' },
        attachments: [
          { id: 1, file_type: 'file', data_url: `https://files.example/${encodeURIComponent(text)}`, fallback_title: null },
          { id: 2, file_type: 'file', fallback_title: text },
        ],
      });
      const { container, unmount } = renderWithSession(<MessageBubble message={m} />, { bridge: silentBridge });
      const article = container.querySelector('article')!;
      expectIsolated(article.querySelector('.sender')!, text);
      const attachments = [...article.querySelectorAll('.attachment')];
      expect(attachments).toHaveLength(2);
      for (const a of attachments) expectIsolated(a, text);
      expect(hasHiddenCharacters(article.getAttribute('aria-label')!, 'name'), article.getAttribute('aria-label')!).toBe(false);
      // The body: isolated as a whole and block by block; what reorders letters is a token.
      const body = article.querySelector('.markdown')!;
      expect(body.getAttribute('dir')).toBe('auto');
      const blocks = [...body.querySelectorAll('p, li, blockquote, pre, ul')];
      expect(blocks.length).toBeGreaterThan(3);
      for (const b of blocks) expect(b.getAttribute('dir'), b.outerHTML).toBe('auto');
      expectNoRawControls(body, 'prose');
      expect(body.querySelectorAll('.control-char').length).toBe(attack.hiddenInProse.length * 4);
      for (const t of body.querySelectorAll('.control-char')) expect(t.getAttribute('aria-label')).toMatch(/^hidden character: /);
      unmount();

      const activity = messageSchema.parse({ id: 2, content: `Conversation was assigned to ${text}`, conversation_id: 7, message_type: 2, created_at: 1 });
      const a = renderWithSession(<MessageBubble message={activity} />, { bridge: silentBridge });
      expectIsolated(a.container.querySelector('.content')!, `Conversation was assigned to ${text}`);
      a.unmount();
    }
  });

  it('legitimate right-to-left text, emoji sequences and joiners come through unchanged in names and bodies', () => {
    for (const text of LEGITIMATE) {
      const m = messageSchema.parse({ id: 1, content: text, conversation_id: 7, message_type: 0, created_at: 1, sender: { id: 70, name: text, type: 'contact' } });
      const { container, unmount } = renderWithSession(<MessageBubble message={m} />, { bridge: silentBridge });
      expect(container.querySelector('.sender bdi')!.textContent).toBe(text);
      expect(container.querySelector('.markdown')!.textContent!.trim()).toBe(text);
      expect(container.querySelectorAll('.control-char')).toHaveLength(0);
      unmount();
    }
  });

  it('search results: titles and snippets', () => {
    for (const text of CORPUS) {
      const hits = [{ key: 'c7', kind: 'contact' as const, conversationId: 7, contactId: 70, title: text, snippet: `said ${text}`, at: 0, source: 'local' as const }];
      const { container, unmount } = render(<SearchResults query="x" hits={hits} service="idle" onOpen={noop} />);
      expectIsolated(container.querySelector('.contact')!, text);
      expectIsolated(container.querySelector('.preview')!, `said ${text}`, 'prose');
      expectNoRawControls(container.querySelector('.hit-top')!);
      unmount();
    }
  });

  it('the session switcher: account names, emails, other saved accounts', async () => {
    for (const text of CORPUS) {
      const session = testSession({ user: { id: 2, name: text, email: `${text}@acme.example`, role: 'agent' }, accounts: [{ id: 1, name: `Acme ${text}`, role: 'agent' }] });
      const other = { id: 'other', baseUrl: 'http://other.test', accountId: 9, accountName: `Other ${text}`, userName: text, userEmail: `${text}@other.example`, status: 'ready' as const };
      const { bridge } = fakeBridge({
        'session.list': () => ({ ok: true, value: { sessions: [other] } }),
        'app.getSettings': () => ({ ok: true, value: { launchAtLogin: { supported: false, enabled: false }, osNotifications: false } }),
      });
      const { container, unmount } = renderWithSession(<SessionSwitcher />, { bridge, session });
      const toggle = container.querySelector('.switcher-toggle')!;
      expectIsolated(toggle, `Acme ${text}`);
      expectIsolated(toggle, `${text}@acme.example`);
      fireEvent.click(toggle);
      await waitFor(() => expect(container.querySelector('#session-switcher-panel li')).not.toBeNull());
      const panel = container.querySelector('#session-switcher-panel')!;
      expectIsolated(panel, `Other ${text}`);
      expectIsolated(panel, savedSessionDetail(other));
      expectIsolated(panel, `Acme ${text}`);
      expectNoRawControls(container);
      unmount();
    }
  });

  it('the typing indicator', () => {
    for (const text of CORPUS) {
      act(() => useTyping.getState().start(7, 'contact:70', { name: text, isPrivate: false }));
      const { container, unmount } = render(<TypingIndicator conversationId={7} />);
      // One line, isolated as a whole: the name's hidden characters are tokens.
      expectIsolated(container, typingLine([{ name: text, isPrivate: false }])!);
      expectNoRawControls(container);
      unmount();
      act(() => useTyping.getState().clear());
    }
  });

  it('the account picker: the user and every account', () => {
    for (const text of CORPUS) {
      const choice: ChooseAccount = { status: 'choose_account', pendingId: 'p', baseUrl: 'http://service.test', user: { name: text, email: `${text}@acme.example` }, accounts: [{ id: 1, name: `Acme ${text}`, role: 'agent' }] };
      const { container, unmount } = render(<AccountPicker bridge={silentBridge} choice={choice} onBack={noop} onSignedIn={noop} />);
      expectIsolated(container, text);
      expectIsolated(container, `${text}@acme.example`);
      expectIsolated(container, `Acme ${text}`);
      expectNoRawControls(container);
      unmount();
    }
  });

  it('pickers (agents, teams, labels): every option and its detail', () => {
    for (const text of CORPUS) {
      const { container, unmount } = render(<PickerDialog title="Assign to" inputLabel="Filter agents" options={[{ id: '1', label: text, detail: `${text}@acme.example` }]} onClose={noop} onPick={noop} />);
      const listbox = screen.getByRole('listbox');
      expectIsolated(listbox, text);
      expectIsolated(listbox, `${text}@acme.example`);
      expectNoRawControls(container);
      unmount();
    }
  });

  it('service error text: the sync banner and a message that was not sent', () => {
    for (const text of CORPUS) {
      const banner = render(<SyncBanner error={new BridgeFailure({ kind: 'validation', message: `Refused: ${text}` })} />);
      expectIsolated(banner.container, `Refused: ${text}`);
      expectNoRawControls(banner.container);
      banner.unmount();
      const m = messageSchema.parse({ id: -1, content: 'hello', conversation_id: 7, message_type: 1, created_at: 1 });
      const { container, unmount } = renderWithSession(<MessageBubble message={m} unsent={{ seq: 3, state: 'failed', attempts: 1, uncertain: false, lastError: text, lastErrorKind: 'validation' }} />, { bridge: silentBridge });
      expectIsolated(container.querySelector('.unsent-state')!, `Not sent: ${text}`);
      expectNoRawControls(container.querySelector('.unsent-state')!);
      unmount();
    }
  });

  it('notifications the page words: title and body carry none of these characters', () => {
    for (const attack of ATTACKS) {
      const text = attack.text;
      const event: LiveEvent = {
        type: 'message.created',
        accountId: 1,
        conversation: { assignee_id: null },
        message: messageSchema.parse({ id: 9, content: `hello ${text}`, conversation_id: 7, message_type: 0, created_at: 1, sender: { id: 70, name: text, type: 'contact' } }),
      };
      const content = classify(event, defaultSettings('UTC'), { meId: 2, where: `Inbox ${text}` })!;
      expect(content).toBeDefined();
      expect(content.title).not.toMatch(ALL_HIDDEN);
      expect(content.body).not.toMatch(ALL_HIDDEN);
      // A mention quotes a colleague's note, also cleaned.
      const note: LiveEvent = { ...event, message: { ...event.message, private: true, message_type: 1, content: `${text} [@Sam](mention://user/2/Sam)`, sender: { id: 9, name: text, type: 'user' } } };
      const mention = classify(note, defaultSettings('UTC'), { meId: 2 })!;
      expect(mention.reason).toBe('mentions');
      expect(`${mention.title} ${mention.body}`).not.toMatch(ALL_HIDDEN);
      // Main strips them again before the OS sees anything: tests/unit/untrusted-text.test.ts.
    }
  });
});
