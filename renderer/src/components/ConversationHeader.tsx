// The open conversation's header: who, which number, its triage state (status, snoozed until, how
// long the contact has waited, priority, assignee and their availability, team, labels), the
// colleagues who also have it open, and the triage actions as buttons (the same ones e, s, a, t, l, p, u
// run), then the contact panel toggle.
import { useContext } from 'react';
import type { Conversation } from '../../../shared/api/records';
import { formatSnooze } from '../actions/snooze';
import type { CachedConversation } from '../db/schema';
import { teamLabel } from '../directory/team-label';
import { DirectoryContext } from '../directory/use-directory';
import type { PickerKind } from '../state/ui';
import { AlsoViewing, AssigneeAvailability } from './ColleaguePresence';
import { UntrustedText } from './UntrustedText';
import { WaitingChip } from './WaitingChip';

export interface HeaderActions {
  back(): void;
  setStatus(status: 'open' | 'resolved'): void;
  markUnread(): void;
  open(kind: PickerKind): void;
  toggleContact(): void;
}

/** "Snoozed until Tue 9:00", or "until the next reply". */
export function snoozeText(record: Pick<Conversation, 'status' | 'snoozed_until'> | undefined, now = new Date()): string | undefined {
  if (record?.status !== 'snoozed') return undefined;
  const until = record.snoozed_until ? new Date(record.snoozed_until) : undefined;
  return until && Number.isFinite(until.getTime()) ? `Snoozed until ${formatSnooze(until, now)}` : 'Snoozed until the next reply';
}

const buttons: { kind: PickerKind; label: string; key: string }[] = [
  { kind: 'snooze', label: 'Snooze', key: 's' },
  { kind: 'assign', label: 'Assign', key: 'a' },
  { kind: 'team', label: 'Team', key: 't' },
  { kind: 'labels', label: 'Labels', key: 'l' },
  { kind: 'priority', label: 'Priority', key: 'p' },
];

export function ConversationHeader(props: {
  id: number;
  name: string;
  conversation: CachedConversation | undefined;
  record: Conversation | undefined;
  contactExpanded: boolean;
  actions: HeaderActions;
  /** The signed-in agent (not listed among those also viewing). */
  meId: number;
}) {
  const c = props.conversation;
  const directory = useContext(DirectoryContext);
  // A team the directory no longer lists was deleted: not shown (the service dropped it too).
  const team = c ? teamLabel(c.teamId, directory.teams, props.record?.meta.team?.name) : undefined;
  const snoozed = snoozeText(props.record);
  const resolved = c?.status === 'resolved';
  return (
    <header className="pane-header conversation-header">
      <div className="header-title">
        <button type="button" className="back" onClick={props.actions.back} aria-label="Back to the list">
          ←
        </button>
        <h2>
          <UntrustedText text={props.name} />
        </h2>
        <span className="muted">#{props.id}</span>
        {c && <span className={`chip status-${c.status}`} data-testid="conversation-status">{c.status}</span>}
        {snoozed && <span className="chip snoozed" data-testid="snoozed-until">{snoozed}</span>}
        {c && <WaitingChip c={c} long />}
        {c?.priority && (
          <span className={`chip priority-${c.priority}`} data-testid="conversation-priority">
            {c.priority}
          </span>
        )}
        {c && (
          <span className="chip assignee" data-testid="conversation-assignee">
            {c.assigneeName ? <UntrustedText text={c.assigneeName} /> : 'Unassigned'}
          </span>
        )}
        {c && c.assigneeId > 0 && <AssigneeAvailability assigneeId={c.assigneeId} />}
        {c && <AlsoViewing conversationId={props.id} meId={props.meId} />}
        {c && team && (
          <span className="chip team" data-testid="conversation-team">
            Team <UntrustedText text={team} />
          </span>
        )}
        {c && c.labels.length > 0 && (
          <ul className="chips plain" aria-label="Labels" data-testid="conversation-labels">
            {c.labels.map((l) => (
              <li key={l} className="chip label">
                <UntrustedText text={l} />
              </li>
            ))}
          </ul>
        )}
      </div>
      <div role="toolbar" aria-label="Conversation actions" className="header-actions">
        {c && (
          <>
            <button type="button" onClick={() => props.actions.setStatus(resolved ? 'open' : 'resolved')} aria-keyshortcuts={resolved ? undefined : 'e'}>
              {resolved ? 'Reopen' : 'Resolve'}
            </button>
            {buttons.map((b) => (
              <button key={b.kind} type="button" onClick={() => props.actions.open(b.kind)} aria-keyshortcuts={b.key} aria-haspopup="dialog">
                {b.label}
              </button>
            ))}
            <button type="button" onClick={props.actions.markUnread} aria-keyshortcuts="u">
              Mark unread
            </button>
          </>
        )}
        <button type="button" className="link-button contact-toggle" aria-expanded={props.contactExpanded} onClick={props.actions.toggleContact}>
          Contact
        </button>
      </div>
    </header>
  );
}
