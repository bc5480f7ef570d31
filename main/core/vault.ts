// Where tokens live. main/core never touches Electron: the Electron shell supplies a vault backed
// by safeStorage, web mode supplies its own. Tokens go in, and come out only to build requests.
export interface TokenVault {
  save(sessionId: string, token: string): Promise<void>;
  load(sessionId: string): Promise<string | undefined>;
  delete(sessionId: string): Promise<void>;
}

/** Keeps tokens for this launch only: the agent enters the token again next time. */
export function memoryVault(): TokenVault {
  const tokens = new Map<string, string>();
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
  };
}
