// The token vault on disk: encrypted with the injected cipher, in a 0600 file in a 0700 folder;
// with only weak protection, nothing is written before the agent chooses.
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../main/core/redact';
import type { TokenCipher } from '../../main/core/vault/cipher';
import { fileVault } from '../../main/core/vault/file-vault';

const TOKEN = 'tok-os-1234567890abcdef';

/** A reversible stand-in for safeStorage: output never contains the plain text. */
const cipher = (protection: 'os' | 'weak', scheme = `test-${protection}`): TokenCipher => ({
  protection,
  scheme,
  encrypt: async (text) => Uint8Array.from(Buffer.from(`enc:${text}`).map((b) => b ^ 0x5a)),
  decrypt: async (data) => {
    const plain = Buffer.from(Buffer.from(data).map((b) => b ^ 0x5a)).toString();
    if (!plain.startsWith('enc:')) throw new Error('cannot decrypt');
    return plain.slice(4);
  },
});

function setup(protection: 'os' | 'weak' = 'os') {
  const dir = join(mkdtempSync(join(tmpdir(), 'vault-')), 'user-data');
  const file = join(dir, 'tokens.json');
  const warnings: string[] = [];
  const logger: Logger = { info: () => undefined, warn: (m) => void warnings.push(m), error: () => undefined };
  const open = (c: TokenCipher = cipher(protection)) => fileVault({ file, cipher: c, logger });
  return { dir, file, warnings, open };
}
const mode = (path: string) => statSync(path).mode & 0o777;

describe('with OS encryption', () => {
  it('writes the token encrypted, in a 0600 file inside a 0700 folder, and reads it back next launch', async () => {
    const { dir, file, open } = setup('os');
    await open().save('s1', TOKEN);
    expect(mode(file)).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(Buffer.from(TOKEN).toString('base64'));
    expect(await open().load('s1')).toBe(TOKEN);
    expect(await open().storage()).toEqual({ protection: 'os', choice: 'not_needed', unsaved: 0 });
  });

  it('deletes a token from the file', async () => {
    const { file, open } = setup('os');
    const v = open();
    await v.save('s1', TOKEN);
    await v.save('s2', 'other-token-xyz');
    await v.delete('s1');
    expect(await v.load('s1')).toBeUndefined();
    expect(await open().load('s1')).toBeUndefined();
    expect(await open().load('s2')).toBe('other-token-xyz');
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).tokens)).toEqual(['s2']);
  });

  it('tightens a file someone widened to 0644 on the next write, and leaves no temp files', async () => {
    const { dir, file, open } = setup('os');
    await open().save('s1', TOKEN);
    chmodSync(file, 0o644);
    await open().save('s2', TOKEN);
    expect(mode(file)).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['tokens.json']);
  });

  it('does not decrypt with another scheme, and treats an undecryptable token as missing', async () => {
    const { file, open, warnings } = setup('os');
    await open().save('s1', TOKEN);
    expect(await open(cipher('os', 'another-scheme')).load('s1')).toBeUndefined();
    const f = JSON.parse(readFileSync(file, 'utf8'));
    f.tokens.s1.data = Buffer.from('garbage').toString('base64');
    writeFileSync(file, JSON.stringify(f));
    expect(await open().load('s1')).toBeUndefined();
    expect(warnings.join()).toMatch(/could not be decrypted/);
    expect(warnings.join()).not.toContain(TOKEN);
  });

  it('moves a corrupt file aside instead of overwriting it, and carries on', async () => {
    const { dir, file, open, warnings } = setup('os');
    await open().save('s1', TOKEN);
    writeFileSync(file, '{ not json');
    const v = open();
    expect(await v.load('s1')).toBeUndefined();
    await v.save('s2', TOKEN);
    expect(readdirSync(dir).some((n) => n.startsWith('tokens.json.corrupt-'))).toBe(true);
    expect(warnings.join()).toMatch(/did not parse/);
    expect(await open().load('s2')).toBe(TOKEN);
  });
});

describe('with only weak protection (Linux without a keyring)', () => {
  it('writes nothing before the agent chooses, and says so', async () => {
    const { file, open } = setup('weak');
    const v = open();
    await v.save('s1', TOKEN);
    expect(existsSync(file)).toBe(false);
    expect(await v.load('s1')).toBe(TOKEN);
    expect(await v.storage()).toEqual({ protection: 'weak', choice: 'ask', unsaved: 1 });
    // A new launch without a choice knows nothing.
    expect(await open().load('s1')).toBeUndefined();
  });

  it('stores the waiting tokens once the agent agrees, and later ones straight away', async () => {
    const { file, open } = setup('weak');
    const v = open();
    await v.save('s1', TOKEN);
    expect(await v.choose('store_weak')).toEqual({ protection: 'weak', choice: 'store_weak', unsaved: 0 });
    await v.save('s2', 'second-token-abc');
    expect(mode(file)).toBe(0o600);
    const next = open();
    expect(await next.load('s1')).toBe(TOKEN);
    expect(await next.load('s2')).toBe('second-token-abc');
    expect((await next.storage()).choice).toBe('store_weak');
  });

  it('keeps tokens for this launch only when the agent declines, and takes back an earlier yes', async () => {
    const { file, open } = setup('weak');
    const v = open();
    await v.choose('store_weak');
    await v.save('s1', TOKEN);
    expect(await v.choose('each_launch')).toEqual({ protection: 'weak', choice: 'each_launch', unsaved: 0 });
    expect(JSON.parse(readFileSync(file, 'utf8')).tokens).toEqual({});
    await v.save('s2', 'second-token-abc');
    expect(await v.load('s2')).toBe('second-token-abc');
    expect(readFileSync(file, 'utf8')).not.toContain('second');
    const next = open();
    expect(await next.load('s1')).toBeUndefined();
    expect(await next.storage()).toEqual({ protection: 'weak', choice: 'each_launch', unsaved: 0 });
  });

  it('with OS encryption the choice is not needed and does nothing', async () => {
    const { open } = setup('os');
    expect(await open().choose('each_launch')).toEqual({ protection: 'os', choice: 'not_needed', unsaved: 0 });
  });
});
