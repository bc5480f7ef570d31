// The larger view of a received image or PDF: the bytes main checked, from a `blob:` URL of main's
// own type (image/*, application/pdf), so nothing here is parsed as a page. Escape or Close goes back.
import { createPortal } from 'react-dom';
import { visibleControls } from '../../../shared/text/untrusted-text';
import { savedFileName } from '../files/file-name';
import { ModalSheet } from './ModalSheet';
import { UntrustedText } from './UntrustedText';

export function FileViewer(props: { name: string; kind: 'image' | 'pdf'; url: string; onClose(): void }) {
  // On the page itself, not inside the message list (whose rows are positioned and clipped).
  return createPortal(
    <ModalSheet
      titleId="file-viewer-title"
      title={<UntrustedText text={props.name} />}
      className="file-viewer"
      onClose={props.onClose}
      actions={
        <a className="link-button" href={props.url} download={savedFileName(props.name)}>
          Save
        </a>
      }
    >
      {props.kind === 'image' ? (
        <img className="file-viewer-image" src={props.url} alt={visibleControls(props.name)} />
      ) : (
        <iframe className="file-viewer-pdf" src={props.url} title={`PDF: ${visibleControls(props.name)}`} />
      )}
    </ModalSheet>,
    document.body,
  );
}
