// Request logs carry no contact credentials (server/http/log-redaction.ts).
import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../server/http/log-redaction';

describe('redactUrl', () => {
  it('hides the Client API inbox identifier and source_id', () => {
    expect(redactUrl('/public/api/v1/inboxes/SECRETINBOX/contacts/SECRETSOURCE/conversations/4/messages')).toBe('/public/api/v1/inboxes/[redacted]/contacts/[redacted]/conversations/4/messages');
    expect(redactUrl('/public/api/v1/inboxes/SECRETINBOX/contacts')).toBe('/public/api/v1/inboxes/[redacted]/contacts');
    expect(redactUrl('/public/api/v1/inboxes/SECRETINBOX')).toBe('/public/api/v1/inboxes/[redacted]');
  });
  it('hides widget tokens and identity query values', () => {
    const out = redactUrl('/widget?website_token=SITE&cw_conversation=JWT.JWT.JWT&x=1');
    expect(out).toBe('/widget?website_token=[redacted]&cw_conversation=[redacted]&x=1');
    expect(redactUrl('/public/api/v1/inboxes/I/contacts/S?identifier=bob&identifier_hash=abc')).not.toMatch(/bob|abc/);
  });
});
