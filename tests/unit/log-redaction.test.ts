// Request logs carry no credentials (server/http/log-redaction.ts). The whole log of a real
// `--log` run is searched in tests/server/request-log.test.ts; these are the rules one by one.
import { describe, expect, it } from 'vitest';
import { redactLogArgs, redactLogText, redactUrl } from '../../server/http/log-redaction';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzb3VyY2VfaWQiOiJ4In0.c2lnbmF0dXJl';

describe('redactUrl', () => {
  it('hides the Client API inbox identifier and source_id', () => {
    expect(redactUrl('/public/api/v1/inboxes/SECRETINBOX/contacts/SECRETSOURCE/conversations/4/messages')).toBe('/public/api/v1/inboxes/[redacted]/contacts/[redacted]/conversations/4/messages');
    expect(redactUrl('/public/api/v1/inboxes/SECRETINBOX/contacts')).toBe('/public/api/v1/inboxes/[redacted]/contacts');
    expect(redactUrl('/public/api/v1/inboxes/SECRETINBOX')).toBe('/public/api/v1/inboxes/[redacted]');
  });

  it('hides them in every path form: absolute-form, doubled slashes, dot segments, other case, percent-encoding, all digits', () => {
    for (const path of [
      'http://svc.example:3000/public/api/v1/inboxes/SECRETINBOX/contacts/SECRETSOURCE',
      '//public/api/v1/inboxes/SECRETINBOX/contacts/SECRETSOURCE',
      '/x/../public//api/v1/inboxes/SECRETINBOX/contacts/SECRETSOURCE/',
      '/PUBLIC/API/V1/INBOXES/SECRETINBOX/CONTACTS/SECRETSOURCE',
      '/public/api/v1/%69nboxes/SECRETINBOX/%63ontacts/SECRETSOURCE',
      '/public/api/v1/inboxes/%53ECRETINBOX/contacts/%53ECRETSOURCE',
    ]) {
      expect(redactUrl(path), path).not.toMatch(/ECRETINBOX|ECRETSOURCE/);
    }
    expect(redactUrl('/public/api/v1/inboxes/123456/contacts/789')).toBe('/public/api/v1/inboxes/[redacted]/contacts/[redacted]');
  });

  it('keeps Application API paths as they are (numeric ids, named actions)', () => {
    for (const path of ['/api/v1/accounts/1/inboxes/5/assignment_policy', '/api/v1/accounts/1/contacts/search?q=ann&page=2', '/api/v1/accounts/1/contacts/12/labels']) {
      expect(redactUrl(path)).toBe(path);
    }
  });

  it('hides an upload\'s blob key (an unguessable URL is its only protection)', () => {
    expect(redactUrl('/rails/active_storage/blobs/Zx81key/report.pdf')).toBe('/rails/active_storage/blobs/[redacted]/report.pdf');
  });

  it('hides widget tokens and identity query values', () => {
    const out = redactUrl('/widget?website_token=SITE&cw_conversation=JWT.JWT.JWT&x=1');
    expect(out).toBe('/widget?website_token=[redacted]&cw_conversation=[redacted]&x=1');
    expect(redactUrl('/public/api/v1/inboxes/I/contacts/S?identifier=bob&identifier_hash=abc')).not.toMatch(/bob|abc/);
  });

  it.each([
    'api_access_token',
    'access_token',
    'token',
    'auth_token',
    'x_auth_token',
    'X-Auth-Token',
    'widget_auth_token',
    'pubsub_token',
    'hmac_token',
    'inbox_identifier',
    'contact_identifier',
    'source_id',
  ])('hides the %s query parameter in every spelling a parser reads as it', (name) => {
    for (const spelled of [name, name.toUpperCase(), name.replace(/_/g, '-'), `${name}[]`, `${name}[0]`, encodeURIComponent(name).replace(/_/g, '%5F'), [...name].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')]) {
      const out = redactUrl(`/api/v1/profile?page=1&${spelled}=S3CRETVALUE&q=x`);
      expect(out, spelled).toBe(`/api/v1/profile?page=1&${spelled}=[redacted]&q=x`);
    }
  });

  it('hides any value shaped like a JWT, under any name or none, and drops a fragment', () => {
    expect(redactUrl(`/x?state=${JWT}&a=1`)).toBe('/x?state=[redacted]&a=1');
    expect(redactUrl(`/x?${JWT}`)).toBe('/x?[redacted]');
    expect(redactUrl(`/x/${JWT}/y`)).toBe('/x/[redacted]/y');
    expect(redactUrl('/x?a=1#api_access_token=zzz')).toBe('/x?a=1');
  });
});

describe('redactLogText and redactLogArgs', () => {
  it('scrubs URLs, header-like pairs and JWTs in free text', () => {
    const text = `GET http://svc/x?api_access_token=T1 failed; headers {"api_access_token":"T2","X-Auth-Token":"${JWT}"} Authorization: Bearer T3 at /public/api/v1/inboxes/INB1`;
    const out = redactLogText(text);
    expect(out).not.toMatch(/T1|T2|T3|INB1|eyJ/);
    expect(out).toContain('failed');
  });

  it('keeps pino\'s shape for an error and walks plain details', () => {
    const [first, msg] = redactLogArgs([new Error('boom at /public/api/v1/inboxes/INB1')]) as [{ err: Error }, string];
    expect(first.err).toBeInstanceOf(Error);
    expect(first.err.message).toBe('boom at /public/api/v1/inboxes/[redacted]');
    expect(msg).toBe(first.err.message);
    expect(redactLogArgs([{ detail: { url: '/x?pubsub_token=P1' } }, 'note'])).toEqual([{ detail: { url: '/x?pubsub_token=[redacted]' } }, 'note']);
  });
});
