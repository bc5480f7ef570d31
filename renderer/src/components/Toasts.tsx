// In-app toasts: a notification while the agent looks at the app, about another conversation than
// the open one. Announced politely (the live region), never taking focus; each goes after a while,
// or with Open (which opens its conversation) or Dismiss.
import { memo, useEffect } from 'react';
import type { Toast } from '../notifications/toasts';
import { useToasts } from '../notifications/toasts';
import { UntrustedText } from './UntrustedText';

const SHOWN_MS = 8_000;

function ToastItem({ toast, onOpen }: { toast: Toast; onOpen(conversationId: number): void }) {
  const dismiss = useToasts((s) => s.dismiss);
  useEffect(() => {
    const t = setTimeout(() => dismiss(toast.tag), SHOWN_MS);
    return () => clearTimeout(t);
  }, [toast.tag, toast.n, dismiss]);
  return (
    <li className="toast" data-tag={toast.tag}>
      <strong>
        <UntrustedText text={toast.title} />
      </strong>
      <span>
        <UntrustedText text={toast.body} />
      </span>
      <span className="toast-actions">
        {toast.conversationId !== undefined && (
          <button
            type="button"
            className="link-button"
            onClick={() => {
              dismiss(toast.tag);
              onOpen(toast.conversationId!);
            }}
          >
            Open
          </button>
        )}
        <button type="button" className="link-button" aria-label={`Dismiss: ${toast.title}`} onClick={() => dismiss(toast.tag)}>
          Dismiss
        </button>
      </span>
    </li>
  );
}

/** Memoised: the inbox renders again whenever a picker opens or closes. */
export const Toasts = memo(function Toasts({ onOpen }: { onOpen(conversationId: number): void }) {
  const toasts = useToasts((s) => s.toasts);
  return (
    <div className="toasts" role="status" aria-live="polite" aria-label="Notifications">
      {toasts.length > 0 && (
        <ul>
          {toasts.map((t) => (
            <ToastItem key={t.tag} toast={t} onOpen={onOpen} />
          ))}
        </ul>
      )}
    </div>
  );
});
