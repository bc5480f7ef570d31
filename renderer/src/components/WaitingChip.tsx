// How long the contact has been waiting for a reply (model/waiting.ts), on a list row and in the
// header: amber and red past the agent's thresholds, muted while snoozed. The words carry the
// level too ("long wait", "snoozed"), never the colour alone.
import type { CachedConversation } from '../db/schema';
import type { WaitingLevel } from '../model/waiting';
import { formatWait, waitingFor } from '../model/waiting';
import { useNowSeconds, useWaitingThresholds } from '../waiting/use-waiting';
import { fullTime } from './time';

const levelWords: Record<WaitingLevel, string> = { ok: '', warn: ' (long wait)', alert: ' (too long)', deferred: ' (snoozed)' };

export function WaitingChip({ c, long = false }: { c: Pick<CachedConversation, 'status' | 'waitingSince'>; long?: boolean }) {
  const now = useNowSeconds();
  const thresholds = useWaitingThresholds();
  const w = waitingFor(c, now, thresholds);
  if (!w) return null;
  const text = formatWait(w.seconds);
  return (
    <span className={`chip waiting waiting-${w.level}`} data-testid="waiting" data-level={w.level} title={`Waiting for a reply since ${fullTime(w.since)}`}>
      <span className="visually-hidden">{long ? '' : 'Waiting '}</span>
      {long ? `Waiting ${text}` : text}
      <span className="visually-hidden">{levelWords[w.level]}</span>
      {w.level === 'alert' && <span aria-hidden="true"> !</span>}
    </span>
  );
}
