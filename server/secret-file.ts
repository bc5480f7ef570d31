// Files holding secrets (the CLI's --credentials-out). `writeFileSync(path, text, { mode: 0o600 })`
// applies the mode only when it creates the file: an existing, wider file would keep its mode and
// receive the secrets. So the text goes to a new file created 0600 next to the target (O_EXCL: never
// an existing file or a planted symlink), which then replaces the target by rename. Readers see the
// old file or the new one, never secrets under the old mode.
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';

export function writeSecretFile(path: string, text: string) {
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, text, { mode: 0o600, flag: 'wx' });
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}
