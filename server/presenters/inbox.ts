// The full inbox object (spec: Resources → Inbox; chatwoot-compat §2.11). Configurable fields live
// in `inboxes.settings` (JSON) with the defaults below.
import { json } from '../db/open';
import type { InboxRow } from '../store/inboxes';
import { iso } from './time';

/** Monday to Friday 9-17, weekends closed. */
function defaultWorkingHours() {
  return Array.from({ length: 7 }, (_, day) => {
    const weekend = day === 0 || day === 6;
    return { day_of_week: day, closed_all_day: weekend, open_all_day: false, open_hour: weekend ? null : 9, open_minutes: weekend ? null : 0, close_hour: weekend ? null : 17, close_minutes: weekend ? null : 0 };
  });
}

export function inboxSettings(row: InboxRow) {
  const s = json.parse(row.settings);
  const str = (k: string, d: string | null = null) => (typeof s[k] === 'string' ? (s[k] as string) : d);
  const bool = (k: string, d: boolean) => (typeof s[k] === 'boolean' ? (s[k] as boolean) : d);
  return {
    website_url: str('website_url'),
    widget_color: str('widget_color', row.channel_type === 'Channel::WebWidget' ? '#1f93ff' : null),
    welcome_title: str('welcome_title', row.channel_type === 'Channel::WebWidget' ? 'Hi there!' : null),
    welcome_tagline: str('welcome_tagline', row.channel_type === 'Channel::WebWidget' ? 'We reply in a few minutes.' : null),
    greeting_enabled: bool('greeting_enabled', false),
    greeting_message: str('greeting_message'),
    enable_auto_assignment: bool('enable_auto_assignment', true),
    auto_assignment_config: (s.auto_assignment_config as Record<string, unknown> | undefined) ?? {},
    working_hours_enabled: bool('working_hours_enabled', false),
    working_hours: (s.working_hours as ReturnType<typeof defaultWorkingHours> | undefined) ?? defaultWorkingHours(),
    out_of_office_message: str('out_of_office_message'),
    timezone: str('timezone', 'UTC')!,
    enable_email_collect: bool('enable_email_collect', true),
    csat_survey_enabled: bool('csat_survey_enabled', false),
    csat_config: (s.csat_config as Record<string, unknown> | undefined) ?? {},
    callback_webhook_url: str('callback_webhook_url'),
    allow_messages_after_resolved: bool('allow_messages_after_resolved', true),
    lock_to_single_conversation: bool('lock_to_single_conversation', false),
    sender_name_type: str('sender_name_type', 'friendly')!,
    business_name: str('business_name'),
    allowed_domains: str('allowed_domains', '')!,
    selected_feature_flags: (s.selected_feature_flags as string[] | undefined) ?? ['attachments', 'emoji_picker'],
    reply_time: str('reply_time', 'in_a_few_minutes'),
    pre_chat_form_enabled: bool('pre_chat_form_enabled', false),
    pre_chat_form_options: (s.pre_chat_form_options as Record<string, unknown> | undefined) ?? {
      pre_chat_message: 'Share your queries or comments here.',
      pre_chat_fields: [
        { name: 'emailAddress', type: 'email', label: 'Email Id', enabled: false, required: true, field_type: 'standard' },
        { name: 'fullName', type: 'text', label: 'Full name', enabled: false, required: false, field_type: 'standard' },
      ],
    },
    continuity_via_email: bool('continuity_via_email', true),
    locale: str('locale', 'en')!,
  };
}

function widgetScript(row: InboxRow, baseUrl: string) {
  if (!row.website_token) return null;
  return `<script>(function(d,t){var g=d.createElement(t);g.src=${JSON.stringify(`${baseUrl}/packs/js/sdk.js`)};g.async=true;d.body.appendChild(g);g.onload=function(){window.chatwootSDK.run({websiteToken:${JSON.stringify(row.website_token)},baseUrl:${JSON.stringify(baseUrl)}})}})(document,"script");</script>`;
}

/**
 * The spec's Inbox table declares `medium` not nullable ("communication medium such as sms or
 * email"); Chatwoot only fills it for Twilio. Every inbox here says what it is: `email`,
 * `web_widget`, `api` (the channel type's name in snake case).
 */
const mediumOf = (channelType: string) =>
  channelType
    .replace(/^Channel::/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase();

/** `isAdmin` controls the credential fields (hmac_token), as the reference service does. */
export function inboxFull(row: InboxRow, opts: { isAdmin: boolean; baseUrl: string }) {
  const s = inboxSettings(row);
  const { locale: _locale, ...settings } = s;
  return {
    id: row.id,
    name: row.name,
    channel_id: row.channel_id,
    channel_type: row.channel_type,
    avatar_url: '',
    website_token: row.website_token,
    web_widget_script: widgetScript(row, opts.baseUrl),
    ...settings,
    hmac_mandatory: row.hmac_mandatory === 1,
    ...(opts.isAdmin ? { hmac_token: row.hmac_token } : {}),
    messaging_service_sid: null,
    phone_number: null,
    provider: null,
    medium: mediumOf(row.channel_type),
    ...(row.channel_type === 'Channel::Api' ? { webhook_url: row.webhook_url, inbox_identifier: row.identifier, additional_attributes: {} } : {}),
    created_at: iso(row.created_at),
  };
}
