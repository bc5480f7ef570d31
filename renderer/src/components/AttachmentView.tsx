// One attachment of a message, shown from the bytes main fetched and checked (files/use-service-file):
// an image as a preview that opens larger, audio and video playable, a PDF or any other file as a
// card with its name, type and size, Open (what the app can show: images, PDFs) and Save. A file
// still on its way (an unsent message's) or one main would not fetch is a card that says why.
import { useState } from 'react';
import type { Attachment } from '../../../shared/api/records';
import type { FileRefusal } from '../../../shared/bridge/calls/files';
import { visibleControls } from '../../../shared/text/untrusted-text';
import { savedFileName } from '../files/file-name';
import type { ShownFile } from '../files/use-service-file';
import { useAttachmentFile } from '../files/use-service-file';
import { FileViewer } from './FileViewer';
import { UntrustedText } from './UntrustedText';

const refusalText: Record<FileRefusal, string> = {
  other_host: 'Stored outside your service: not fetched.',
  too_large: 'Too large to fetch here.',
  program: 'A program: not fetched, for your safety.',
  contains_secret: 'Not shown: it contains a credential.',
  unsupported: 'Not a file the app can show.',
  no_file: 'No longer available.',
  bad_address: 'Its address cannot be used.',
};

const kindLabel = (shown: ShownFile, a: Attachment) =>
  shown.status === 'ok' ? (shown.kind === 'pdf' ? 'PDF' : shown.kind === 'file' ? (a.extension ? a.extension.toUpperCase() : 'File') : shown.kind) : a.file_type;

export function formatBytes(n: number | null | undefined): string {
  if (!n) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function AttachmentView(props: { attachment: Attachment; name: string; conversationId: number; messageId: number; pending: boolean }) {
  const { attachment: a, name } = props;
  const shown = useAttachmentFile({ conversationId: props.conversationId, messageId: props.messageId, attachmentId: a.id }, !props.pending);
  const [viewing, setViewing] = useState(false);
  const label = visibleControls(name);
  const size = formatBytes(shown.status === 'ok' ? shown.size : a.file_size);
  const saveName = savedFileName(name);

  if (shown.status === 'ok' && shown.kind === 'image') {
    return (
      <li className="attachment attachment-image">
        <button type="button" className="image-preview" aria-label={`View ${label} larger`} onClick={() => setViewing(true)}>
          <img src={shown.url} alt={label} />
        </button>
        {viewing && <FileViewer name={name} kind="image" url={shown.url} onClose={() => setViewing(false)} />}
      </li>
    );
  }
  if (shown.status === 'ok' && (shown.kind === 'audio' || shown.kind === 'video')) {
    return (
      <li className={`attachment attachment-${shown.kind}`}>
        {shown.kind === 'audio' ? <audio controls preload="metadata" src={shown.url} aria-label={label} /> : <video controls preload="metadata" src={shown.url} aria-label={label} />}
        <a className="link-button" href={shown.url} download={saveName} aria-label={`Save ${label}`}>
          Save
        </a>
      </li>
    );
  }
  return (
    <li className="attachment attachment-card" data-file-state={shown.status}>
      <span className="attachment-type">{kindLabel(shown, a)}</span>
      <span className="attachment-name">
        <UntrustedText text={name} />
      </span>
      {size && <span className="muted"> · {size}</span>}
      {props.pending ? null : shown.status === 'loading' ? (
        <span className="muted"> · Fetching…</span>
      ) : shown.status === 'refused' ? (
        <span className="muted"> · {refusalText[shown.reason]}</span>
      ) : shown.status === 'failed' ? (
        <span className="error"> · {shown.message}</span>
      ) : (
        <span className="attachment-actions">
          {shown.kind === 'pdf' && (
            <button type="button" className="link-button" aria-label={`Open ${label}`} onClick={() => setViewing(true)}>
              Open
            </button>
          )}
          <a className="link-button" href={shown.url} download={saveName} aria-label={`Save ${label}`}>
            Save
          </a>
        </span>
      )}
      {viewing && shown.status === 'ok' && <FileViewer name={name} kind="pdf" url={shown.url} onClose={() => setViewing(false)} />}
    </li>
  );
}
