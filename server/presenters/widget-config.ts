// The widget session response (spec: Resources → Widget configuration): website_channel_config with
// every field the spec lists, the visitor's contact, and global_config.
import { randomInt } from 'node:crypto';
import type { InboxRow } from '../store/inboxes';
import { inboxSettings } from './inbox';
import type { ContactRow } from './people';
import { iso } from './time';

/** Languages the widget offers (name as shown to visitors, ISO 639-1 code). */
const ENABLED_LANGUAGES = [
  { name: 'English (en)', iso_639_1_code: 'en' },
  { name: 'Deutsch (de)', iso_639_1_code: 'de' },
  { name: 'Español (es)', iso_639_1_code: 'es' },
  { name: 'Français (fr)', iso_639_1_code: 'fr' },
  { name: 'Italiano (it)', iso_639_1_code: 'it' },
  { name: 'Nederlands (nl)', iso_639_1_code: 'nl' },
  { name: 'Polski (pl)', iso_639_1_code: 'pl' },
  { name: 'Português (pt)', iso_639_1_code: 'pt' },
  { name: 'Português Brasileiro (pt_BR)', iso_639_1_code: 'pt_BR' },
  { name: 'Svenska (sv)', iso_639_1_code: 'sv' },
  { name: 'Türkçe (tr)', iso_639_1_code: 'tr' },
  { name: '日本語 (ja)', iso_639_1_code: 'ja' },
];

export const GLOBAL_CONFIG = {
  LOGO_THUMBNAIL: '',
  BRAND_NAME: 'Agent Inbox',
  WIDGET_BRAND_URL: '',
  INSTALLATION_NAME: 'Customer Messaging Service',
};

/** `+HH:MM` offset of an IANA time zone at a given instant; UTC for a zone the runtime does not know. */
function utcOffset(timeZone: string, at: number): string {
  let name: string;
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(new Date(at));
    name = parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  } catch {
    name = 'GMT';
  }
  const match = /^GMT([+-])(\d{1,2})(?::(\d{2}))?$/.exec(name);
  if (!match) return '+00:00';
  return `${match[1]}${match[2]!.padStart(2, '0')}:${match[3] ?? '00'}`;
}

const ADJECTIVES = ['autumn', 'hidden', 'bitter', 'misty', 'silent', 'empty', 'dry', 'dark', 'summer', 'icy', 'quiet', 'white', 'cool', 'spring', 'winter', 'patient', 'twilight', 'crimson', 'wispy', 'bold'];
const NOUNS = ['waterfall', 'river', 'breeze', 'moon', 'rain', 'wind', 'sea', 'morning', 'snow', 'lake', 'sunset', 'pine', 'shadow', 'leaf', 'dawn', 'glitter', 'forest', 'hill', 'cloud', 'meadow'];

/** A first-time visitor's generated name, e.g. `misty-river-482`. */
export function visitorName(): string {
  return `${ADJECTIVES[randomInt(ADJECTIVES.length)]}-${NOUNS[randomInt(NOUNS.length)]}-${randomInt(100, 1000)}`;
}

export function websiteChannelConfig(inbox: InboxRow, opts: { authToken: string; apiHost: string; now: number }) {
  const s = inboxSettings(inbox);
  return {
    allow_messages_after_resolved: s.allow_messages_after_resolved,
    api_host: opts.apiHost,
    auth_token: opts.authToken,
    avatar_url: '',
    csat_survey_enabled: s.csat_survey_enabled,
    disable_branding: false,
    enabled_features: s.selected_feature_flags,
    enabled_languages: ENABLED_LANGUAGES,
    locale: s.locale,
    out_of_office_message: s.out_of_office_message,
    portal: null,
    pre_chat_form_enabled: s.pre_chat_form_enabled,
    pre_chat_form_options: s.pre_chat_form_options,
    reply_time: s.reply_time ?? 'in_a_few_minutes',
    timezone: s.timezone,
    utc_off_set: utcOffset(s.timezone, opts.now),
    website_name: inbox.name,
    website_token: inbox.website_token ?? '',
    welcome_tagline: s.welcome_tagline,
    welcome_title: s.welcome_title,
    widget_color: s.widget_color ?? '#1f93ff',
    // Entries carry their ids and owners here (spec: Working-hours entry, widget configuration).
    working_hours: s.working_hours.map((h) => ({
      ...h,
      id: inbox.id * 10 + h.day_of_week,
      inbox_id: inbox.id,
      account_id: inbox.account_id,
      created_at: iso(inbox.created_at),
      updated_at: iso(inbox.created_at),
    })),
    working_hours_enabled: s.working_hours_enabled,
  };
}

export function widgetContact(c: ContactRow, pubsubToken: string) {
  return { id: c.id, name: c.name, email: c.email, identifier: c.identifier, phone_number: c.phone_number, pubsub_token: pubsubToken };
}
