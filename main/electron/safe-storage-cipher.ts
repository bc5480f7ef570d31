// The vault's cipher from Electron's safeStorage. Electron 41.7.1 (pinned) has only the
// synchronous encryptString/decryptString (no async variants in its types), so they are wrapped
// in the async TokenCipher interface; swapping in async variants later changes only this file.
// Call after app 'ready': before it, the Linux backend reads as `unknown`.
import { safeStorage } from 'electron';
import type { TokenCipher } from '../core/vault/cipher';
import { fileModeOnlyCipher } from '../core/vault/cipher';

/** Linux backends that are not real encryption: basic_text uses a key hard-coded in Chromium. */
const WEAK_LINUX_BACKENDS = new Set(['basic_text', 'unknown']);

export function safeStorageCipher(platform: NodeJS.Platform = process.platform): TokenCipher {
  if (!safeStorage.isEncryptionAvailable()) return fileModeOnlyCipher;
  const backend = platform === 'linux' ? safeStorage.getSelectedStorageBackend() : 'os';
  return {
    protection: WEAK_LINUX_BACKENDS.has(backend) ? 'weak' : 'os',
    // The backend is part of the scheme: a token written with basic_text is not handed to libsecret.
    scheme: `safeStorage:${backend}`,
    encrypt: async (plainText) => safeStorage.encryptString(plainText),
    decrypt: async (data) => safeStorage.decryptString(Buffer.from(data)),
  };
}
