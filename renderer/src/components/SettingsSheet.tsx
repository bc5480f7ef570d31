// A settings screen over the inbox (notifications, waiting-time colours): a modal dialog named by
// its heading, closed by Esc (which goes no further, so the inbox's own Esc does not run too) or a
// click outside it. What it holds is the caller's.
import type { ReactNode } from 'react';

export function SettingsSheet(props: { titleId: string; title: string; className?: string; onClose(): void; headerExtra?: ReactNode; children: ReactNode }) {
  return (
    <div className="overlay" onMouseDown={props.onClose}>
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby={props.titleId}
        className={`sheet settings${props.className ? ` ${props.className}` : ''}`}
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
          {props.headerExtra}
        </header>
        {props.children}
      </div>
    </div>
  );
}
