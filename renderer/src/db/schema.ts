// The local cache: one IndexedDB database per signed-in session (service + user + account), so
// signing out of one account can drop exactly its data. Screens render from here first.
// Versions and their upgrades live in migrations.ts; the row shapes of the current version here.
import Dexie from 'dexie';
import type { Table } from 'dexie';
import type { Contact } from '../../../shared/api/contacts';
import type { Agent, CannedResponse, Inbox, Label, Team } from '../../../shared/api/directory';
import type { CachedContactNote, CachedConversation, CachedMessage, ConversationRecord, CursorState, Draft, DraftFiles, OutboxEntry, OutboxFiles, QuietWindow, SettingValue, SyncValue, ViewCounts } from '../model/rows';
import { declareVersions } from './migrations';

export type * from '../model/rows';

export class InboxDb extends Dexie {
  conversations!: Table<CachedConversation, number>;
  conversationRecords!: Table<ConversationRecord, number>;
  messages!: Table<CachedMessage, number>;
  cursors!: Table<CursorState, number>;
  contacts!: Table<Contact, number>;
  inboxes!: Table<Inbox, number>;
  agents!: Table<Agent, number>;
  teams!: Table<Team, number>;
  labels!: Table<Label, number>;
  cannedResponses!: Table<CannedResponse, number>;
  drafts!: Table<Draft, number>;
  outbox!: Table<OutboxEntry, number>;
  viewCounts!: Table<ViewCounts, string>;
  quiet!: Table<QuietWindow, number>;
  sync!: Table<SyncValue, string>;
  settings!: Table<SettingValue, string>;
  contactNotes!: Table<CachedContactNote, number>;
  outboxFiles!: Table<OutboxFiles, string>;
  draftFiles!: Table<DraftFiles, number>;

  constructor(name: string) {
    super(name);
    declareVersions(this);
    // The cache is being deleted (sign-out, from this page or another): this connection lets go for
    // good. Dexie's own handling closes it but opens it again on the next read or write, which would
    // re-create a signed-out cache (a draft saved or a list read a moment after the delete).
    // An upgrade by a newer app (a version, not null) keeps Dexie's handling.
    this.on('versionchange', (event) => {
      if (event.newVersion !== null) return;
      this.close({ disableAutoOpen: true });
      return false;
    });
  }
}
