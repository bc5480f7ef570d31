// What to do with a queued change once the service's current state is known (pure). The agent
// acted on what the cache showed (`entry.before`); the service may have moved since:
//
// - it already has what the agent wants: nothing to send (and if someone else did it before our
//   first attempt went out, the agent is told: "already resolved by Alex");
// - it still has what the agent saw: send;
// - it has something else (another agent changed the same thing meanwhile): a conflict, shown to
//   the agent with one key to apply anyway or drop;
// - labels merge instead: the agent's additions and removals apply on top of the service's set,
//   so two agents labelling the same conversation never undo each other.
//
// Read markers are not compared: "read" and "unread" always go.
import type { Conversation } from '../../../shared/api/records';
import type { Intent, IntentKind } from './intent';
import { normalizeLabels, withLabelChange } from './intent';
import type { OutboxEntry } from './rows';

/** A field value in a form two sides can be compared by, and a few words for the agent. */
interface FieldValue {
  key: string;
  words: string;
}

const priorityWords = (p: string | null) => (p ? `priority ${p}` : 'no priority');

/** The value an intent sets, for the fields the conflict rules compare. */
export function intentValue(intent: Intent): FieldValue | undefined {
  switch (intent.kind) {
    case 'status':
      return { key: intent.status, words: intent.status };
    case 'priority':
      return { key: intent.priority ?? 'none', words: priorityWords(intent.priority) };
    case 'assignee':
      return { key: String(intent.assignee?.id ?? 0), words: intent.assignee ? `assigned to ${intent.assignee.name}` : 'unassigned' };
    case 'team':
      return { key: String(intent.team?.id ?? 0), words: intent.team ? `in team ${intent.team.name}` : 'without a team' };
    case 'labels':
      return { key: normalizeLabels(intent.labels).join('\n'), words: labelWords(intent.labels) };
    default:
      return undefined;
  }
}

const labelWords = (labels: readonly string[]) => (labels.length ? `labelled ${normalizeLabels(labels).join(', ')}` : 'without labels');

/** The same field as a record holds it. */
export function recordValue(kind: IntentKind, c: Conversation | undefined): FieldValue | undefined {
  if (!c) return undefined;
  switch (kind) {
    case 'status':
      return { key: c.status, words: c.status };
    case 'priority':
      return { key: c.priority ?? 'none', words: priorityWords(c.priority) };
    case 'assignee': {
      const a = c.meta.assignee;
      return { key: String(a?.id ?? 0), words: a ? `assigned to ${a.available_name || a.name || `agent ${a.id}`}` : 'unassigned' };
    }
    case 'team':
      return { key: String(c.meta.team?.id ?? 0), words: c.meta.team ? `in team ${c.meta.team.name}` : 'without a team' };
    case 'labels':
      return { key: normalizeLabels(c.labels).join('\n'), words: labelWords(c.labels) };
    default:
      return undefined;
  }
}

/** What the agent is told about a change someone else made first (the timeline's last activity line says who). */
export interface ConflictInfo {
  /** What the service has now, in words ("resolved", "assigned to Priya Shah"). */
  theirs: string;
  /** What the agent asked for, in words. */
  mine: string;
  /** The service's own activity line, when its newest message is one ("Conversation was marked resolved by Alex"). */
  activity?: string;
}

export type Decision =
  | { kind: 'send'; intent: Intent }
  /** The service already has it: confirm without sending. `told`: someone else did it first. */
  | { kind: 'done'; told?: ConflictInfo }
  | { kind: 'conflict'; conflict: ConflictInfo };

/** The newest activity line of the record (the REST record carries its newest message of any kind). */
const activityOf = (c: Conversation) => {
  const last = c.messages.at(-1);
  return last && last.message_type === 2 && last.content ? last.content : undefined;
};

/**
 * Decides a queued state change against the service's current record. `attempted`: an earlier
 * attempt of this entry went out (its outcome unknown), so a service already showing the intent
 * may be our own doing: never "someone else".
 */
export function decide(entry: Pick<OutboxEntry, 'payload' | 'before' | 'kind' | 'sent' | 'baseMoved'>, service: Conversation, attempted: boolean): Decision {
  const intent = entry.payload;
  const ours = new Set(entry.sent ?? []);
  if (intent.kind === 'labels') {
    // Relative (queued before the set was known): it applies to the service's set, whatever it is.
    if (intent.change) {
      const merged = withLabelChange(service.labels, intent.change);
      return sameSet(merged, service.labels) ? { kind: 'done' } : { kind: 'send', intent: { kind: 'labels', labels: merged } };
    }
    // Our own earlier write landed (late): it, not what the agent first saw, is what this change builds on.
    const before = ours.has(recordValue('labels', service)!.key) ? service : (entry.before?.record ?? undefined);
    return decideLabels(intent, before, service);
  }
  const mine = intentValue(intent);
  if (!mine) return { kind: 'send', intent };
  const theirs = recordValue(intent.kind, service)!;
  const base = ours.has(theirs.key) || entry.baseMoved ? theirs : recordValue(intent.kind, entry.before?.record ?? undefined);
  const info = (): ConflictInfo => ({ theirs: theirs.words, mine: mine.words, ...(activityOf(service) ? { activity: activityOf(service)! } : {}) });
  if (theirs.key === mine.key) {
    // Snoozing again with another time is not "already there".
    if (intent.kind === 'status' && intent.status === 'snoozed' && !sameSnooze(intent.snoozedUntil, service.snoozed_until)) return { kind: 'send', intent };
    return base && base.key !== theirs.key && !attempted ? { kind: 'done', told: info() } : { kind: 'done' };
  }
  if (!base || base.key === theirs.key) return { kind: 'send', intent };
  return { kind: 'conflict', conflict: info() };
}

const sameSnooze = (until: number | null, iso: string | null) => (until === null ? iso === null : iso !== null && Math.floor(Date.parse(iso) / 1000) === until);

/** The agent's label changes (against what they saw) applied to the service's set. */
function decideLabels(intent: Extract<Intent, { kind: 'labels' }>, before: Conversation | undefined, service: Conversation): Decision {
  const theirs = normalizeLabels(service.labels);
  if (!before) return sameSet(theirs, intent.labels) ? { kind: 'done' } : { kind: 'send', intent };
  const base = new Set(normalizeLabels(before.labels));
  const mine = new Set(normalizeLabels(intent.labels));
  const added = [...mine].filter((l) => !base.has(l));
  const removed = new Set([...base].filter((l) => !mine.has(l)));
  const merged = normalizeLabels([...theirs.filter((l) => !removed.has(l)), ...added]);
  return sameSet(merged, theirs) ? { kind: 'done' } : { kind: 'send', intent: { kind: 'labels', labels: merged } };
}

const sameSet = (a: readonly string[], b: readonly string[]) => normalizeLabels(a).join('\n') === normalizeLabels(b).join('\n');

/**
 * Fields a confirmed change of `kind` may have changed on the service besides its own: reopening
 * self-assigns an agent; a new team may drop or pick the assignee. Later queued changes of these
 * kinds were decided on the optimistic state, so their `before` is rebased on what the service
 * answered (otherwise our own side effect would look like someone else's change).
 */
export const sideEffectKinds: Partial<Record<IntentKind, readonly IntentKind[]>> = {
  status: ['assignee'],
  team: ['assignee'],
};
