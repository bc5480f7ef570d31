// A modal sheet over the app: the dimmed overlay (a click outside closes it), the dialog named by
// its heading, Escape to close (kept from reaching the app's shortcuts), and a header with the
// title, any actions, and Close (focused on open, so the keyboard starts inside; a sheet whose own
// first control takes the focus goes without it: `closeButton={false}`).
import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';

export function ModalSheet(props: { titleId: string; title: ReactNode; className?: string; actions?: ReactNode; closeButton?: boolean; onClose(): void; children: ReactNode }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  return (
    <div className="overlay" onMouseDown={props.onClose}>
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby={props.titleId}
        className={`sheet${props.className ? ` ${props.className}` : ''}`}
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            props.onClose();
          }
        }}
      >
        <header className="pane-header">
          <h2 id={props.titleId}>{props.title}</h2>
          {props.actions}
          {props.closeButton !== false && (
            <button ref={close} type="button" className="link-button" onClick={props.onClose}>
              Close
            </button>
          )}
        </header>
        {props.children}
      </div>
    </div>
  );
}
