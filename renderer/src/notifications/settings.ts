// The agent's notification settings, per session (stored in the session's cache, `settings`
// table), with defaults that notify about what is the agent's to answer. Validated with zod when
// read back, so a row written by an older version (or damaged) falls back field by field. With
// zod's tree-shakable form (`zod/mini`): the page's entry then holds only the parts it uses.
import * as z from 'zod/mini';

/** Why something notifies: the rules the agent turns on and off. */
export const ruleNames = ['mine', 'unassigned', 'teams', 'participating', 'inboxes', 'assignedToMe', 'assignedToMyTeams', 'mentions', 'resolvedReply'] as const;
export type RuleName = (typeof ruleNames)[number];

export const ruleLabels: Record<RuleName, string> = {
  mine: 'New messages in conversations assigned to me',
  unassigned: 'New messages in unassigned conversations of my inboxes',
  teams: 'New messages in conversations of the teams picked below',
  participating: 'New messages in conversations I took part in',
  inboxes: 'Every new message in the inboxes picked below',
  assignedToMe: 'A conversation assigned to me (says by whom)',
  assignedToMyTeams: 'A conversation moved to one of the teams picked below',
  mentions: 'Mentions of me in private notes (quoted)',
  resolvedReply: 'A contact replying to a conversation I resolved',
};

export const soundNames = ['chime', 'ping', 'knock', 'none'] as const;
export type SoundName = (typeof soundNames)[number];

/** "HH:MM", 00:00 to 23:59. */
const clock = z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/));

/** Quiet time on the given weekdays (0 Sunday … 6 Saturday) from `start` to `end`; an end before the start runs past midnight. */
export const quietPeriodSchema = z.object({ days: z.array(z.int().check(z.minimum(0), z.maximum(6))).check(z.maxLength(7)), start: clock, end: clock });
export type QuietPeriod = z.infer<typeof quietPeriodSchema>;

const ids = z.array(z.int().check(z.positive())).check(z.maxLength(500));

export const notifySettingsSchema = z.object({
  enabled: z.catch(z.boolean(), true),
  rules: z.catch(z.partial(z.object(Object.fromEntries(ruleNames.map((r) => [r, z.boolean()])) as Record<RuleName, z.ZodMiniBoolean>)), {}),
  /** For the `teams` and `assignedToMyTeams` rules. */
  teamIds: z.catch(ids, []),
  /** For the `inboxes` rule. */
  inboxIds: z.catch(ids, []),
  /** Conversations that never notify (mentions of the agent still do, as in Slack). */
  muted: z.catch(ids, []),
  /** Conversations that notify on any activity (other agents' replies and notes, status lines). */
  watched: z.catch(ids, []),
  /** While the window has the agent's attention, about another conversation than the open one. */
  focused: z.catch(z.object({ toast: z.boolean(), sound: z.boolean() }), { toast: true, sound: true }),
  sound: z.catch(z.object({ name: z.enum(soundNames), volume: z.number().check(z.minimum(0), z.maximum(1)) }), { name: 'chime', volume: 0.7 }),
  /** Remind after this many minutes when a notified conversation is still unanswered; 0: never. */
  reminderMinutes: z.catch(z.int().check(z.minimum(0), z.maximum(24 * 60)), 0),
  /** New notifications per minute at most; the rest go into one summary. */
  perMinute: z.catch(z.int().check(z.minimum(1), z.maximum(60)), 6),
  /** A conversation's next message within this long updates its notification instead of raising another. */
  coalesceSeconds: z.catch(z.int().check(z.minimum(0), z.maximum(3_600)), 120),
  dnd: z.catch(
    z.object({
      /** IANA time zone the schedule is read in (the computer's, when the agent set it). */
      timeZone: z.string().check(z.maxLength(100)),
      schedule: z.array(quietPeriodSchema).check(z.maxLength(14)),
      /**
       * Epoch ms: when the last pause began (null: never paused, or paused before this was kept).
       * With `pausedUntil` it keeps the spell on record after Resume: a message written during it
       * and decided later still joins its summary.
       */
      pausedFrom: z._default(z.catch(z.nullable(z.number()), null), null),
      /** Epoch ms: paused until then ("pause for 1 hour"; Resume sets it to the moment it was pressed). */
      pausedUntil: z.nullable(z.number()),
    }),
    { timeZone: 'UTC', schedule: [], pausedFrom: null, pausedUntil: null },
  ),
});
export type NotifySettings = z.infer<typeof notifySettingsSchema>;

export const defaultRules: Record<RuleName, boolean> = {
  mine: true,
  unassigned: true,
  teams: true,
  participating: true,
  inboxes: true,
  assignedToMe: true,
  assignedToMyTeams: true,
  mentions: true,
  resolvedReply: true,
};

/** The computer's time zone, where the platform says. */
export const localTimeZone = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};

export function defaultSettings(timeZone = localTimeZone()): NotifySettings {
  return {
    enabled: true,
    rules: { ...defaultRules },
    teamIds: [],
    inboxIds: [],
    muted: [],
    watched: [],
    focused: { toast: true, sound: true },
    sound: { name: 'chime', volume: 0.7 },
    reminderMinutes: 0,
    perMinute: 6,
    coalesceSeconds: 120,
    dnd: { timeZone, schedule: [], pausedFrom: null, pausedUntil: null },
  };
}

/** What was stored, read field by field over the defaults (a damaged field falls back alone). */
export function readSettings(stored: unknown, timeZone?: string): NotifySettings {
  const base = defaultSettings(timeZone);
  if (!stored || typeof stored !== 'object') return base;
  const parsed = notifySettingsSchema.safeParse({ ...base, ...stored });
  const value = parsed.success ? parsed.data : base;
  return { ...value, rules: { ...defaultRules, ...value.rules } };
}

export const ruleOn = (s: NotifySettings, rule: RuleName) => s.rules[rule] ?? defaultRules[rule];
