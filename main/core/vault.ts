// Where tokens live. main/core never touches Electron: the Electron shell injects a cipher backed
// by safeStorage into the file vault (vault/file-vault.ts); web mode keeps tokens in memory.
// Tokens go in, and come out only to build requests.
import type { TokenStorage } from '../../shared/bridge/calls/session';

export interface TokenVault {
  save(sessionId: string, token: string): Promise<void>;
  load(sessionId: string): Promise<string | undefined>;
  delete(sessionId: string): Promise<void>;
  /** How tokens are kept, and whether the agent still has to choose (weak storage needs consent). */
  storage(): Promise<TokenStorage>;
  choose(choice: 'store_weak' | 'each_launch'): Promise<TokenStorage>;
}

/** Keeps tokens for this launch only: the agent enters the token again next time. */
export function memoryVault(): TokenVault {
  const tokens = new Map<string, string>();
  const storage = async (): Promise<TokenStorage> => ({ protection: 'memory', choice: 'not_needed', unsaved: 0 });
  return {
    async save(id, token) {
      tokens.set(id, token);
    },
    async load(id) {
      return tokens.get(id);
    },
    async delete(id) {
      tokens.delete(id);
    },
    storage,
    choose: storage,
  };
}
