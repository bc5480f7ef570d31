// Versioned schema migrations. `PRAGMA user_version` records how many have run; each runs once, in a
// transaction, in order. Never edit a migration that has shipped: add the next one.
// Times are stored as integer milliseconds since the epoch (UTC); presenters format them.
// One module per schema version (NNN-name.ts); this list is their order: version N is entry N - 1.
import { coreSchema } from './001-core';
import { webhooksAndSecrets } from './002-webhooks-secrets';
import { applicationApi } from './003-application-api';
import { contactAvatars } from './004-contact-avatars';
import { syncRevisions } from './005-sync-revisions';
import { idempotencyKeys } from './006-idempotency-keys';
import { customAttributeDefinitions } from './007-custom-attribute-definitions';
import { contactInboxIndex } from './008-contact-inbox-index';
import { messageChangeSeqOnInsert } from './009-message-change-seq-on-insert';
import { messageUnreadIndex } from './010-message-unread-index';

export const migrations: readonly string[] = [
  coreSchema,
  webhooksAndSecrets,
  applicationApi,
  contactAvatars,
  syncRevisions,
  idempotencyKeys,
  customAttributeDefinitions,
  contactInboxIndex,
  messageChangeSeqOnInsert,
  messageUnreadIndex,
];
