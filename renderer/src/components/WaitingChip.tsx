// How long the contact has been waiting for a reply (model/waiting.ts), on a list row and in the
// header: amber and red past the agent's thresholds, muted while snoozed. The words carry the
// level too ("long wait", "snoozed"), never the colour alone.
import type { PointerEvent } from 'react';
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
  // The exact time in the tooltip is written when a pointer comes over the chip, not as it is drawn:
  // the first date a page formats for its locale loads the browser's locale and time-zone data,
  // 12-25 ms in a window's new process on this hardware, which a cold open's first rows (with
  // their waiting chips) would otherwise pay before they are painted.
  const describe = (e: PointerEvent<HTMLSpanElement>) => {
    e.currentTarget.title = `Waiting for a reply since ${fullTime(w.since)}`;
  };
  return (
    <span className={`chip waiting waiting-${w.level}`} data-testid="waiting" data-level={w.level} onPointerEnter={describe}>
      <span className="visually-hidden">{long ? '' : 'Waiting '}</span>
      {long ? `Waiting ${text}` : text}
      <span className="visually-hidden">{levelWords[w.level]}</span>
      {w.level === 'alert' && <span aria-hidden="true"> !</span>}
    </span>
  );
}
