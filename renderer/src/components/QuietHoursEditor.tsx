// Do not disturb in the settings screen: pause for an hour (or resume), and quiet hours by
// weekday read in a time zone (the computer's by default). A period ending before it starts runs
// past midnight ("22:00 to 07:00").
import type { NotifySettings, QuietPeriod } from '../notifications/settings';
import { isQuiet, pauseFor, resume } from '../notifications/quiet-time';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const HOUR = 3_600_000;
const validZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

export function QuietHoursEditor({ dnd, now, onChange }: { dnd: NotifySettings['dnd']; now: number; onChange(dnd: NotifySettings['dnd']): void }) {
  const paused = dnd.pausedUntil !== null && dnd.pausedUntil > now;
  const setPeriod = (i: number, patch: Partial<QuietPeriod>) => onChange({ ...dnd, schedule: dnd.schedule.map((p, j) => (j === i ? { ...p, ...patch } : p)) });
  return (
    <fieldset>
      <legend>Do not disturb</legend>
      <p className="hint" data-testid="dnd-state">
        {paused ? `Paused until ${new Date(dnd.pausedUntil!).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}.` : isQuiet(dnd, now) ? 'Quiet hours now.' : 'Notifications are on.'} What comes meanwhile is summed up in one notification afterwards.
      </p>
      <button type="button" onClick={() => onChange(paused ? resume(dnd, Date.now()) : pauseFor(dnd, Date.now(), HOUR))}>
        {paused ? 'Resume notifications' : 'Pause for 1 hour'}
      </button>
      {dnd.schedule.map((p, i) => (
        <div key={i} className="quiet-period" role="group" aria-label={`Quiet hours ${i + 1}`}>
          {DAYS.map((d, day) => (
            <label key={d} className="choice day">
              <input type="checkbox" checked={p.days.includes(day)} onChange={(e) => setPeriod(i, { days: e.target.checked ? [...p.days, day].sort() : p.days.filter((x) => x !== day) })} />
              {d}
            </label>
          ))}
          <label>
            from <input type="time" value={p.start} required onChange={(e) => e.target.value && setPeriod(i, { start: e.target.value })} />
          </label>
          <label>
            to <input type="time" value={p.end} required onChange={(e) => e.target.value && setPeriod(i, { end: e.target.value })} />
          </label>
          <button type="button" className="link-button" onClick={() => onChange({ ...dnd, schedule: dnd.schedule.filter((_, j) => j !== i) })}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" className="link-button" onClick={() => onChange({ ...dnd, schedule: [...dnd.schedule, { days: [1, 2, 3, 4, 5], start: '18:00', end: '09:00' }] })}>
        Add quiet hours
      </button>
      <label>
        Time zone{' '}
        <input
          defaultValue={dnd.timeZone}
          aria-describedby="zone-hint"
          onBlur={(e) => {
            const zone = e.target.value.trim();
            if (validZone(zone)) onChange({ ...dnd, timeZone: zone });
            else e.target.value = dnd.timeZone;
          }}
        />
      </label>
      <span id="zone-hint" className="hint">
        An IANA name, e.g. Europe/Paris; quiet hours are read there.
      </span>
    </fieldset>
  );
}
