// The larger view of a received image or PDF: the bytes main checked, from a `blob:` URL of main's
// own type (image/*, application/pdf), so nothing here is parsed as a page. Escape or Close goes back.
import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { savedFileName } from '../files/file-name';
import { UntrustedText } from './UntrustedText';
import { visibleControls } from '../../../shared/text/untrusted-text';

export function FileViewer(props: { name: string; kind: 'image' | 'pdf'; url: string; onClose(): void }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  // On the page itself, not inside the message list (whose rows are positioned and clipped).
  return createPortal(
    <div className="overlay" onMouseDown={props.onClose}>
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="file-viewer-title"
        className="sheet file-viewer"
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            props.onClose();
          }
        }}
      >
        <header className="pane-header">
          <h2 id="file-viewer-title">
            <UntrustedText text={props.name} />
          </h2>
          <a className="link-button" href={props.url} download={savedFileName(props.name)}>
            Save
          </a>
          <button ref={close} type="button" className="link-button" onClick={props.onClose}>
            Close
          </button>
        </header>
        {props.kind === 'image' ? (
          <img className="file-viewer-image" src={props.url} alt={visibleControls(props.name)} />
        ) : (
          <iframe className="file-viewer-pdf" src={props.url} title={`PDF: ${visibleControls(props.name)}`} />
        )}
      </div>
    </div>,
    document.body,
  );
}
