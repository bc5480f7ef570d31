// The saved servers/accounts (no tokens: those are in the vault), which one is active, and the
// caches of signed-out sessions the renderer has not deleted yet. A file under user data in the
// desktop app; memory in web mode and tests.
import { z } from 'zod';
import { sessionInfoSchema } from '../../../shared/bridge/calls/session';
import type { SessionInfo } from '../../../shared/bridge/calls/session';
import type { PendingWork } from '../pending-work';
import type { Logger } from '../redact';
import { jsonFileStore } from '../storage/json-file';
import type { JsonFileStore } from '../storage/json-file';

export const savedSessionsFileSchema = z.object({
  version: z.literal(1),
  activeId: z.string().nullable(),
  sessions: z.array(sessionInfoSchema.extend({ lastUsedAt: z.number() })),
  /** Signed-out sessions whose `inbox:<id>` database the renderer still has to delete. */
  obsoleteCaches: z.array(z.string()),
});
export type SavedSessionsFile = z.infer<typeof savedSessionsFileSchema>;
export type SavedSessionRecord = SessionInfo & { lastUsedAt: number };

const empty = (): SavedSessionsFile => ({ version: 1, activeId: null, sessions: [], obsoleteCaches: [] });

export type SavedSessionsStore = JsonFileStore<SavedSessionsFile>;

export function savedSessionsFile(file: string, logger: Logger, pending?: PendingWork): SavedSessionsStore {
  return jsonFileStore({
    file,
    schema: savedSessionsFileSchema,
    fallback: empty,
    ...(pending ? { pending } : {}),
    onCorrupt: (movedTo) => logger.warn(`The saved sessions file did not parse; kept it as ${movedTo}.`),
  });
}

export function savedSessionsInMemory(): SavedSessionsStore {
  let value = empty();
  return {
    file: ':memory:',
    read: async () => structuredClone(value),
    write: async (next) => {
      value = structuredClone(next);
    },
  };
}
