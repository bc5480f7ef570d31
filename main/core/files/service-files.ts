// `files.attachment` and `files.avatar`: main looks the address up on the service itself (the
// message's `data_url`, the contact's `thumbnail`; never a URL from the page, never `avatar_url`),
// fetches the bytes under the policy of service-fetch.ts, decides what they are by content
// (sniff.ts), refuses programs and bytes that hold a secret main keeps, and answers base64 for the
// page to turn into a `blob:` URL. Answers are cached (file-cache.ts), so scrolling back costs nothing.
import type { AttachmentFile, FileRefusal } from '../../../shared/bridge/calls/files';
import { MAX_ATTACHMENT_BYTES, MAX_AVATAR_BYTES } from '../../../shared/bridge/calls/files';
import type { Attachment } from '../../../shared/api/records';
import type { BridgeCallName, BridgeOutput, BridgeParsedInput } from '../../../shared/bridge/contract';
import type { Result } from '../../../shared/bridge/result';
import { fail, ok } from '../../../shared/bridge/result';
import { createFileCache } from './file-cache';
import type { Fetched, ServiceFetchDeps } from './service-fetch';
import { fetchServiceFile } from './service-fetch';
import { sniff } from './sniff';

/** An answer of either call (the avatar's is the same shape with a smaller bound). */
type FileAnswer = AttachmentFile;

export interface ServiceFilesDeps extends ServiceFetchDeps {
  /** The active session's id and address, or undefined when none is signed in. */
  session(): { id: string; baseUrl: string } | undefined;
  /** A read through main's own service calls (token, timeouts, expiry handling): `messages.list`, `contacts.get`. */
  read<C extends 'messages.list' | 'contacts.get'>(name: C, input: BridgeParsedInput<C>): Promise<Result<BridgeOutput<C>>>;
  /** Whether `text` holds any secret main keeps (SecretRegistry: scrubbing it changes it). */
  holdsSecret(text: string): boolean;
  /** Per fetch, body included. */
  timeoutMs?: number;
  /** Bytes kept by the cache (answers are base64, a third larger). */
  cacheBytes?: number;
}

/** Fetches running at once: a page asking for a screenful of pictures does not open dozens of connections. */
const PARALLEL = 4;
const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_CACHE_BYTES = 96 * 1024 * 1024;

const refused = (reason: FileRefusal): FileAnswer => ({ status: 'refused', reason });

/** A failure carried out of a cached load (every caller joined to it gets the same one); never cached. */
class Failed extends Error {
  constructor(readonly result: Result<never>) {
    super('failed');
  }
}
const failedResult = (err: unknown): Result<never> => {
  if (err instanceof Failed) return err.result;
  throw err;
};

function limiter(parallel: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= parallel) await new Promise<void>((go) => waiting.push(go));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/** A failed fetch as the bridge says it (refusals are answers, not errors). */
function fetchFailure(f: Extract<Fetched, { ok: false; error: string }>): Result<never> {
  switch (f.error) {
    case 'timeout':
      return fail('timeout', 'The service did not send the file in time.');
    case 'network':
      return fail('network', 'The file could not be fetched. Check your connection.');
    case 'server':
      return fail('server', 'The service could not send the file just now.', { status: f.status });
    default:
      return fail('bad_response', 'The service answered the file request unexpectedly.', { ...(f.status ? { status: f.status } : {}) });
  }
}

export function createServiceFiles(deps: ServiceFilesDeps) {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const answers = createFileCache<FileAnswer>({
    maxBytes: deps.cacheBytes ?? DEFAULT_CACHE_BYTES,
    maxEntries: 2_000,
    sizeOf: (a) => (a.status === 'ok' ? a.data.length : 64),
    keep: () => true,
  });
  // A message's attachments as the service listed them (small; one read per message, not per file).
  const lookups = createFileCache<Attachment[]>({ maxBytes: 4 * 1024 * 1024, maxEntries: 5_000, sizeOf: (list) => 200 * Math.max(1, list.length), keep: () => true });
  const limit = limiter(PARALLEL);

  /** The bytes at `address` as an answer, or the failure to report; cached per session and address. */
  async function fetchAnswer(session: { id: string; baseUrl: string }, address: string, maxBytes: number, declared: string): Promise<Result<FileAnswer>> {
    const load = () =>
      limit(async (): Promise<FileAnswer> => {
        const fetched = await fetchServiceFile(address, session.baseUrl, { maxBytes, timeoutMs }, deps);
        if (!fetched.ok) {
          if ('refused' in fetched) return refused(fetched.refused);
          if (fetched.error === 'not_found') return refused('no_file');
          throw new Failed(fetchFailure(fetched));
        }
        const kind = await sniff(fetched.bytes, declared || fetched.contentType);
        if (kind.kind === 'program') return refused('program');
        // Bytes 1:1 as characters, so any secret (ASCII) in them is found as written.
        if (deps.holdsSecret(Buffer.from(fetched.bytes.buffer, fetched.bytes.byteOffset, fetched.bytes.byteLength).toString('latin1'))) return refused('contains_secret');
        return { status: 'ok', kind: kind.kind, mime: kind.mime, size: fetched.bytes.byteLength, data: Buffer.from(fetched.bytes).toString('base64') };
      });
    return answers.get(`${maxBytes}|${session.id}|${address}`, load).then(ok, failedResult);
  }

  async function attachment(input: BridgeParsedInput<'files.attachment'>): Promise<Result<FileAnswer>> {
    const session = deps.session();
    if (!session) return fail('not_signed_in', 'Sign in to continue.');
    const listed = await lookups
      .get(`${session.id}|${input.conversationId}|${input.messageId}`, async () => {
        // The page names the message; its attachments are read from the service, never taken from the page.
        const page = await deps.read('messages.list', { conversationId: input.conversationId, after: input.messageId - 1 });
        if (!page.ok) throw new Failed(page);
        return page.value.payload.find((m) => m.id === input.messageId)?.attachments ?? [];
      })
      .then(ok, failedResult);
    if (!listed.ok) return listed;
    const found = listed.value.find((a) => a.id === input.attachmentId);
    if (!found?.data_url) return ok(refused('no_file'));
    return fetchAnswer(session, found.data_url, MAX_ATTACHMENT_BYTES, found.file_type);
  }

  async function avatar(input: BridgeParsedInput<'files.avatar'>): Promise<Result<FileAnswer>> {
    const session = deps.session();
    if (!session) return fail('not_signed_in', 'Sign in to continue.');
    // `thumbnail` only: the service serves and checked those bytes; `avatar_url` is whatever a contact typed (server README).
    const contact = await deps.read('contacts.get', { contactId: input.contactId });
    if (!contact.ok) return contact;
    const address = contact.value.payload.thumbnail;
    if (!address) return ok(refused('no_file'));
    const answer = await fetchAnswer(session, address, MAX_AVATAR_BYTES, 'image');
    if (answer.ok && answer.value.status === 'ok' && answer.value.kind !== 'image') return ok(refused('unsupported'));
    return answer;
  }

  return {
    attachment,
    avatar,
    /** Drops what was fetched (sign-out, another session). */
    forget: () => {
      answers.clear();
      lookups.clear();
    },
  };
}
export type ServiceFiles = ReturnType<typeof createServiceFiles>;

/** The handlers, typed against the contract. */
export const fileHandlers = (files: ServiceFiles) => ({
  'files.attachment': files.attachment,
  'files.avatar': files.avatar,
}) satisfies { [C in Extract<BridgeCallName, `files.${string}`>]: (input: BridgeParsedInput<C>) => Promise<Result<FileAnswer>> };
