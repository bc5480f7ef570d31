// The notification settings screen (palette: "Notification settings", or the account menu):
// which events notify, the teams and inboxes some rules use, what happens while the agent looks
// at the app, the sound, reminders, limits, do not disturb, and the conversations muted or
// followed. Every change is saved at once in the session's cache.
import { useEffect, useRef, useState } from 'react';
import type { Directory } from '../directory/use-directory';
import { playSound } from '../notifications/sound';
import type { NotifySettings } from '../notifications/settings';
import { ruleLabels, ruleNames, ruleOn, soundNames } from '../notifications/settings';
import { useNotifySettings } from '../notifications/use-settings';
import { QuietHoursEditor } from './QuietHoursEditor';
import { SettingsSheet } from './SettingsSheet';
import { UntrustedText } from './UntrustedText';

const toggle = (list: number[], id: number, on: boolean) => (on ? [...list.filter((x) => x !== id), id] : list.filter((x) => x !== id));

function NumberField(props: { label: string; value: number; min: number; max: number; onChange(n: number): void; hint: string }) {
  return (
    <label>
      {props.label}{' '}
      <input type="number" min={props.min} max={props.max} value={props.value} onChange={(e) => Number.isInteger(e.target.valueAsNumber) && props.onChange(Math.min(props.max, Math.max(props.min, e.target.valueAsNumber)))} />{' '}
      <span className="hint">{props.hint}</span>
    </label>
  );
}

export function NotificationSettings({ directory, onClose }: { directory: Directory; onClose(): void }) {
  const [settings, update] = useNotifySettings();
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  // The clock do not disturb is read against, moved on every half minute while the screen is up.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);
  const set = (change: (s: NotifySettings) => NotifySettings) => void update(change);
  return (
    <SettingsSheet
      titleId="notify-title"
      title="Notification settings"
      onClose={onClose}
      headerExtra={
        <button ref={close} type="button" className="link-button" onClick={onClose}>
          Close
        </button>
      }
    >
      {!settings ? (
        <p>Loading…</p>
      ) : (
        <div className="settings-body" tabIndex={0} role="region" aria-label="Settings">
          <label className="choice">
            <input type="checkbox" checked={settings.enabled} onChange={(e) => set((s) => ({ ...s, enabled: e.target.checked }))} /> Notifications on
          </label>
          <fieldset>
            <legend>Notify me about</legend>
            {ruleNames.map((rule) => (
              <label key={rule} className="choice">
                <input type="checkbox" checked={ruleOn(settings, rule)} onChange={(e) => set((s) => ({ ...s, rules: { ...s.rules, [rule]: e.target.checked } }))} /> {ruleLabels[rule]}
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend>Teams</legend>
            {directory.teams.length === 0 && <p className="hint">No teams in this account.</p>}
            {directory.teams.map((t) => (
              <label key={t.id} className="choice">
                <input type="checkbox" checked={settings.teamIds.includes(t.id)} onChange={(e) => set((s) => ({ ...s, teamIds: toggle(s.teamIds, t.id, e.target.checked) }))} /> <UntrustedText text={t.name} />
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend>Inboxes (every new message)</legend>
            {directory.inboxes.map((i) => (
              <label key={i.id} className="choice">
                <input type="checkbox" checked={settings.inboxIds.includes(i.id)} onChange={(e) => set((s) => ({ ...s, inboxIds: toggle(s.inboxIds, i.id, e.target.checked) }))} /> <UntrustedText text={i.name} />
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend>While I am looking at the app (another conversation)</legend>
            <label className="choice">
              <input type="checkbox" checked={settings.focused.toast} onChange={(e) => set((s) => ({ ...s, focused: { ...s.focused, toast: e.target.checked } }))} /> Show a toast
            </label>
            <label className="choice">
              <input type="checkbox" checked={settings.focused.sound} onChange={(e) => set((s) => ({ ...s, focused: { ...s.focused, sound: e.target.checked } }))} /> Play the sound
            </label>
          </fieldset>
          <fieldset>
            <legend>Sound</legend>
            <label>
              Sound{' '}
              <select value={settings.sound.name} onChange={(e) => set((s) => ({ ...s, sound: { ...s.sound, name: e.target.value as NotifySettings['sound']['name'] } }))}>
                {soundNames.map((n) => (
                  <option key={n} value={n}>
                    {n === 'none' ? 'No sound' : n}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Volume <input type="range" min={0} max={100} value={Math.round(settings.sound.volume * 100)} onChange={(e) => set((s) => ({ ...s, sound: { ...s.sound, volume: e.target.valueAsNumber / 100 } }))} />
            </label>
            <button type="button" onClick={() => playSound(settings.sound.name, settings.sound.volume)}>
              Play it
            </button>
          </fieldset>
          <fieldset>
            <legend>Reminders and limits</legend>
            <NumberField label="Remind me after" value={settings.reminderMinutes} min={0} max={1440} hint="minutes when a conversation I was notified about is still unanswered (0: never)" onChange={(n) => set((s) => ({ ...s, reminderMinutes: n }))} />
            <NumberField label="At most" value={settings.perMinute} min={1} max={60} hint="new notifications a minute; the rest in one summary" onChange={(n) => set((s) => ({ ...s, perMinute: n }))} />
            <NumberField label="Group a conversation's messages for" value={settings.coalesceSeconds} min={0} max={3600} hint="seconds into one notification" onChange={(n) => set((s) => ({ ...s, coalesceSeconds: n }))} />
          </fieldset>
          <QuietHoursEditor dnd={settings.dnd} now={now} onChange={(dnd) => {
            setNow(Date.now());
            set((s) => ({ ...s, dnd }));
          }} />
          <fieldset>
            <legend>Conversations</legend>
            {!settings.muted.length && !settings.watched.length && <p className="hint">Mute a conversation, or follow all its activity, from the palette while it is open.</p>}
            {[...settings.muted.map((id) => ['muted', id] as const), ...settings.watched.map((id) => ['watched', id] as const)].map(([list, id]) => (
              <p key={`${list}-${id}`}>
                #{id}: {list === 'muted' ? 'muted' : 'any activity'}{' '}
                <button type="button" className="link-button" onClick={() => set((s) => ({ ...s, [list]: s[list].filter((x) => x !== id) }))}>
                  Undo
                </button>
              </p>
            ))}
          </fieldset>
        </div>
      )}
    </SettingsSheet>
  );
}
