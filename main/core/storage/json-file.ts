// Small JSON files under the app's user-data folder (saved sessions, tokens, window state,
// settings). Written atomically (temp file + rename) with mode 0600 in a 0700 folder, so a crash
// mid-write leaves the old file and no other local user can read them. A file that does not
// parse is moved aside (`.corrupt`), never silently overwritten: bad input loses nothing.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z } from 'zod';
import type { PendingWork } from '../pending-work';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

export type ReadOutcome<T> = { status: 'missing' } | { status: 'ok'; value: T } | { status: 'corrupt'; movedTo: string };

export async function readJsonFile<S extends z.ZodType>(file: string, schema: S): Promise<ReadOutcome<z.output<S>>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'missing' };
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const result = schema.safeParse(parsed);
  if (result.success) return { status: 'ok', value: result.data };
  const movedTo = `${file}.corrupt-${Date.now()}`;
  await rename(file, movedTo);
  return { status: 'corrupt', movedTo };
}

/** Writes `text` to `file` atomically and owner-only (the folder too, when it is created). */
export async function writePrivateFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  // 'wx' + mode: the temp file is created private; it never exists with wider permissions.
  const handle = await open(temp, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  // An older file might have been created with a wider mode by hand; rename keeps the temp's
  // mode, but chmod makes the guarantee explicit on every write.
  await chmod(file, PRIVATE_FILE_MODE);
}

export const writeJsonFileAtomic = (file: string, value: unknown): Promise<void> => writePrivateFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);

/**
 * One JSON file with a schema: reads once, then writes are serialised (the last one wins, in
 * order) and tracked as pending work so quitting waits for them.
 */
export function jsonFileStore<S extends z.ZodType>(opts: {
  file: string;
  schema: S;
  fallback: () => z.output<S>;
  pending?: PendingWork;
  onCorrupt?: (movedTo: string) => void;
}) {
  let chain: Promise<void> = Promise.resolve();
  return {
    file: opts.file,
    async read(): Promise<z.output<S>> {
      const outcome = await readJsonFile(opts.file, opts.schema);
      if (outcome.status === 'ok') return outcome.value;
      if (outcome.status === 'corrupt') opts.onCorrupt?.(outcome.movedTo);
      return opts.fallback();
    },
    write(value: z.output<S>): Promise<void> {
      const next = chain.then(() => writeJsonFileAtomic(opts.file, value));
      chain = next.catch(() => undefined);
      return opts.pending ? opts.pending.track(next) : next;
    },
  };
}
export type JsonFileStore<T> = { file: string; read(): Promise<T>; write(value: T): Promise<void> };
