// A file from the service as the page shows it: main fetched and checked the bytes (files.* on the
// bridge; the page names ids, never a URL), and here they become a `blob:` URL of main's own MIME
// type, revoked when nothing shows it any more. TanStack Query keeps one answer per file for the
// session, so scrolling back or a second bubble does not ask main again.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { AttachmentFile } from '../../../shared/bridge/calls/files';
import { callOrThrow } from '../platform/call';
import { useSession } from '../platform/session';

export type ShownFile =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'refused'; reason: Extract<AttachmentFile, { status: 'refused' }>['reason'] }
  | { status: 'ok'; kind: Extract<AttachmentFile, { status: 'ok' }>['kind']; mime: string; size: number; url: string };

export function bytesOfBase64(b64: string): Uint8Array<ArrayBuffer> {
  const text = atob(b64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** The answer as a blob URL (made once per answer, revoked when it changes or the caller goes). */
function useBlobUrl(answer: AttachmentFile | undefined): string | undefined {
  const url = useMemo(() => (answer?.status === 'ok' ? URL.createObjectURL(new Blob([bytesOfBase64(answer.data)], { type: answer.mime })) : undefined), [answer]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

function shown(query: { data?: AttachmentFile; error: unknown; isPending: boolean }, url: string | undefined): ShownFile {
  if (query.data?.status === 'refused') return { status: 'refused', reason: query.data.reason };
  if (query.data?.status === 'ok' && url) return { status: 'ok', kind: query.data.kind, mime: query.data.mime, size: query.data.size, url };
  if (query.error) return { status: 'failed', message: query.error instanceof Error ? query.error.message : 'The file could not be fetched.' };
  return { status: 'loading' };
}

/** One attachment of one message; `enabled` false (an unsent message's file) asks nothing. */
export function useAttachmentFile(ids: { conversationId: number; messageId: number; attachmentId: number }, enabled = true): ShownFile {
  const { bridge, db } = useSession();
  const query = useQuery({
    queryKey: ['file', db.name, 'attachment', ids.conversationId, ids.messageId, ids.attachmentId],
    queryFn: () => callOrThrow(bridge, 'files.attachment', ids),
    enabled,
    staleTime: Infinity,
    gcTime: 5 * 60_000,
    retry: 1,
  });
  return shown(query, useBlobUrl(query.data));
}

/** A contact's picture (main reads the contact's `thumbnail` itself). */
export function useAvatarFile(contactId: number | undefined): ShownFile {
  const { bridge, db } = useSession();
  const query = useQuery({
    queryKey: ['file', db.name, 'avatar', contactId],
    queryFn: () => callOrThrow(bridge, 'files.avatar', { contactId: contactId! }),
    enabled: contactId !== undefined,
    staleTime: 10 * 60_000,
    gcTime: 10 * 60_000,
    retry: false,
  });
  return shown(query, useBlobUrl(query.data));
}
