// The composer's files: the Attach button (a file picker, several at once) and the files that will
// go with the message, each with its size and a way to take it out. Paste and drop add to the same
// list (Composer).
import { useRef } from 'react';
import type { PendingFiles } from '../composer/attachments';
import { formatBytes } from './AttachmentView';
import { UntrustedText } from './UntrustedText';
import { visibleControls } from '../../../shared/text/untrusted-text';

export function AttachmentTray({ pending, disabled }: { pending: PendingFiles; disabled?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="attachment-tray">
      <input
        ref={input}
        type="file"
        multiple
        hidden
        aria-hidden="true"
        tabIndex={-1}
        onChange={(e) => {
          if (e.target.files) pending.add(e.target.files);
          e.target.value = '';
        }}
      />
      <button type="button" className="link-button attach" disabled={disabled} onClick={() => input.current?.click()}>
        Attach files
      </button>
      {pending.files.length > 0 && (
        <ul className="pending-files" aria-label="Files to send">
          {pending.files.map((f, i) => (
            <li key={`${i}-${f.name}-${f.size}`}>
              <UntrustedText text={f.name || `file-${i + 1}`} /> <span className="muted">{formatBytes(f.size)}</span>
              <button type="button" className="link-button" aria-label={`Remove ${visibleControls(f.name || `file-${i + 1}`)}`} onClick={() => pending.remove(i)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
