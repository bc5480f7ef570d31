// The cipher the file vault uses, injected so main/core never imports Electron. The Electron
// shell builds one from safeStorage (main/electron/safe-storage-cipher.ts).

export interface TokenCipher {
  /**
   * `os`: the OS protects the key (macOS Keychain, Windows DPAPI, libsecret/KWallet on Linux).
   * `weak`: no real encryption: Linux `basic_text` (a key hard-coded in Chromium) or none at all.
   * Weak storage happens only after the agent agrees to it.
   */
  protection: 'os' | 'weak';
  /** Written beside each token, so a token is only ever decrypted by the scheme that encrypted it. */
  scheme: string;
  encrypt(plainText: string): Promise<Uint8Array>;
  decrypt(data: Uint8Array): Promise<string>;
}

/**
 * For hosts without any OS encryption (web mode with a data folder): the only protection is the
 * file's 0600 mode. Labelled `weak`, so nothing is written without consent.
 */
export const fileModeOnlyCipher: TokenCipher = {
  protection: 'weak',
  scheme: 'file-mode-only',
  encrypt: async (plainText) => new TextEncoder().encode(plainText),
  decrypt: async (data) => new TextDecoder().decode(data),
};
