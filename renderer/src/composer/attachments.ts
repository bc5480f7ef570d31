// Files the agent is about to send (picked, pasted or dropped), held with the composer's draft
// until sent (`usePendingFiles`, composer/draft-files.ts): then read into bytes and queued with
// the message (actions/outbox-files). Checked as they come against what one message may carry
// (the bridge's limits), each refusal said plainly.
import { MAX_UPLOAD_FILE_BYTES, MAX_UPLOAD_FILES, MAX_UPLOAD_TOTAL_BYTES } from '../../../shared/bridge/calls/message-limits';
import type { QueuedFile } from '../db/schema';

const MB = 1024 * 1024;
/** The MIME shape the bridge takes; anything else (or nothing) goes as application/octet-stream. */
const MIME = /^[\w.+-]+\/[\w.+-]+$/;

export interface PendingFiles {
  files: readonly File[];
  add(incoming: Iterable<File>): void;
  remove(index: number): void;
  clear(): void;
}

/** Which of `incoming` fit beside `held`, and why the others do not. */
export function admit(held: readonly File[], incoming: readonly File[]): { files: File[]; problems: string[] } {
  const files = [...held];
  const problems: string[] = [];
  let total = held.reduce((sum, f) => sum + f.size, 0);
  for (const f of incoming) {
    if (f.size === 0) problems.push(`${f.name} is empty.`);
    else if (f.size > MAX_UPLOAD_FILE_BYTES) problems.push(`${f.name} is larger than ${MAX_UPLOAD_FILE_BYTES / MB} MB.`);
    else if (files.length >= MAX_UPLOAD_FILES) problems.push(`At most ${MAX_UPLOAD_FILES} files per message.`);
    else if (total + f.size > MAX_UPLOAD_TOTAL_BYTES) problems.push(`The files of one message hold at most ${MAX_UPLOAD_TOTAL_BYTES / MB} MB together.`);
    else {
      files.push(f);
      total += f.size;
    }
  }
  return { files, problems: [...new Set(problems)] };
}

/** The files' bytes, read now (a pasted screenshot has a generic name: it gets one that says what it is). */
export async function readFiles(files: readonly File[]): Promise<QueuedFile[]> {
  return Promise.all(
    files.map(async (f, i) => ({
      name: f.name || `file-${i + 1}`,
      type: MIME.test(f.type) ? f.type : 'application/octet-stream',
      size: f.size,
      data: await f.arrayBuffer(),
    })),
  );
}
