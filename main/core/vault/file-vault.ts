// The token vault on disk: one file (mode 0600, see storage/json-file.ts) holding each saved
// session's token encrypted by the injected cipher. When the OS offers no real encryption, a
// token is held in memory only until the agent chooses: store it anyway (`store_weak`) or enter
// it each launch (`each_launch`). Nothing is written in a weaker form before that choice.
import { z } from 'zod';
import type { TokenStorage } from '../../../shared/bridge/calls/session';
import type { PendingWork } from '../pending-work';
import type { Logger } from '../redact';
import { jsonFileStore } from '../storage/json-file';
import type { TokenVault } from '../vault';
import type { TokenCipher } from './cipher';

const vaultFileSchema = z.object({
  version: z.literal(1),
  choice: z.enum(['ask', 'store_weak', 'each_launch']),
  tokens: z.record(z.string(), z.object({ scheme: z.string(), data: z.string() })),
});
type VaultFile = z.infer<typeof vaultFileSchema>;

export interface FileVaultOptions {
  file: string;
  cipher: TokenCipher;
  logger: Logger;
  pending?: PendingWork;
}

export function fileVault(opts: FileVaultOptions): TokenVault {
  const { cipher, logger } = opts;
  const store = jsonFileStore({
    file: opts.file,
    schema: vaultFileSchema,
    fallback: (): VaultFile => ({ version: 1, choice: 'ask', tokens: {} }),
    ...(opts.pending ? { pending: opts.pending } : {}),
    onCorrupt: (movedTo) => logger.warn(`The token file did not parse; kept it as ${movedTo}. Sign in again.`),
  });
  /** Tokens known this launch, saved or not. */
  const live = new Map<string, string>();
  /** Sessions whose tokens wait for the agent's choice before they may be written. */
  const unsaved = new Set<string>();
  let file: Promise<VaultFile> | undefined;
  const current = () => (file ??= store.read());

  const mayWrite = (f: VaultFile) => cipher.protection === 'os' || f.choice === 'store_weak';

  async function update(change: (f: VaultFile) => Promise<void> | void) {
    const f = await current();
    await change(f);
    await store.write(f);
  }

  async function encryptInto(f: VaultFile, id: string, token: string) {
    f.tokens[id] = { scheme: cipher.scheme, data: Buffer.from(await cipher.encrypt(token)).toString('base64') };
  }

  async function storage(): Promise<TokenStorage> {
    const f = await current();
    return { protection: cipher.protection, choice: cipher.protection === 'os' ? 'not_needed' : f.choice, unsaved: unsaved.size };
  }

  return {
    async save(id, token) {
      live.set(id, token);
      const f = await current();
      if (!mayWrite(f)) {
        if (f.choice === 'ask') unsaved.add(id);
        return;
      }
      await update((g) => encryptInto(g, id, token));
    },

    async load(id) {
      const known = live.get(id);
      if (known !== undefined) return known;
      const entry = (await current()).tokens[id];
      // A token written by another scheme (say, before a keyring was set up) is not guessed at.
      if (!entry || entry.scheme !== cipher.scheme) return undefined;
      try {
        const token = await cipher.decrypt(Buffer.from(entry.data, 'base64'));
        live.set(id, token);
        return token;
      } catch {
        logger.warn('A saved token could not be decrypted (the OS keychain may have changed); the agent signs in again.');
        return undefined;
      }
    },

    async delete(id) {
      live.delete(id);
      unsaved.delete(id);
      if ((await current()).tokens[id]) await update((f) => void delete f.tokens[id]);
    },

    storage,

    async choose(choice) {
      if (cipher.protection === 'os') return storage();
      await update(async (f) => {
        f.choice = choice;
        if (choice === 'store_weak') {
          for (const id of unsaved) {
            const token = live.get(id);
            if (token !== undefined) await encryptInto(f, id, token);
          }
        } else {
          // Declining also takes back an earlier yes: no weakly stored token stays on disk.
          f.tokens = {};
        }
      });
      unsaved.clear();
      return storage();
    },
  };
}
