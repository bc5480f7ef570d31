// Web mode's launch secret, kept across restarts. The page proves it is the agent's own with the
// secret it was opened with (the URL fragment, then its session storage); a host started again
// with a new secret would refuse the open tab, which then could only be recovered by copying the
// newly printed address. With a data folder the secret lives there: one file, owner-only (0600 in
// a 0700 folder), written atomically, so a restarted host (a crash, a kill, an update) takes the
// tab back by itself. Anyone who can read the file can already read the agent's tokens beside it.
import { chmod, readFile } from 'node:fs/promises';
import { PRIVATE_FILE_MODE, writePrivateFileAtomic } from '../core/storage/json-file';
import { newLaunchSecret } from './guards';

/** What newLaunchSecret makes: 32 random bytes, base64url. Anything else in the file is not ours. */
const SECRET_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export const LAUNCH_SECRET_FILE = 'web-launch-secret';

/** The secret kept in `file`, made (and kept) there if the file is missing or holds something else. */
export async function stableLaunchSecret(file: string): Promise<string> {
  try {
    const held = (await readFile(file, 'utf8')).trim();
    if (SECRET_FORMAT.test(held)) {
      // Tightened if someone widened it by hand.
      await chmod(file, PRIVATE_FILE_MODE);
      return held;
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = newLaunchSecret();
  // Created private: the secret never exists in a file others could read.
  await writePrivateFileAtomic(file, `${secret}\n`);
  return secret;
}
