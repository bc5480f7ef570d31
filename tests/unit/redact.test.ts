// Redaction: the token is scrubbed from strings, objects, errors, URLs and headers, whether its
// value is known (typed into sign-in) or only its shape (a header or field named like a token).
import { describe, expect, it } from 'vitest';
import { createSecretRegistry, redactingLogger, redactText, redactValue, scrubSecrets } from '../../main/core/redact';

const TOKEN = 'sEcReT-9f8e7d6c5b4a+/=';
const secrets = [TOKEN];

describe('redactText', () => {
  it.each([
    ['a bare known value', `token was ${TOKEN} here`],
    ['a known value, URL-encoded', `GET /x?t=${encodeURIComponent(TOKEN)}`],
    ['twice in one string', `${TOKEN}${TOKEN}`],
  ])('removes %s', (_name, text) => {
    const out = redactText(text, secrets);
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain(encodeURIComponent(TOKEN));
    expect(out).toContain('[redacted]');
  });

  it.each([
    ['a header line', 'api_access_token: abc123def', 'api_access_token: [redacted]'],
    ['a header line, other spelling', 'Api-Access-Token: abc123def', 'Api-Access-Token: [redacted]'],
    ['a query parameter', 'https://svc/x?page=2&api_access_token=abc123&q=1', 'https://svc/x?page=2&api_access_token=[redacted]&q=1'],
    ['an encoded query parameter', 'next=%2Fx%3Fapi_access_token%3Dabc123', 'next=%2Fx%3Fapi_access_token%3D[redacted]'],
    ['a JSON field', '{"access_token":"abc123","name":"Sam"}', '{"access_token":"[redacted]","name":"Sam"}'],
    ['a pubsub token', 'pubsub_token=zzz999', 'pubsub_token=[redacted]'],
    ['a bearer header', 'Authorization: Bearer abc.def.ghi', 'Authorization: Bearer [redacted]'],
    ['a widget auth header', 'X-Auth-Token: eyJhbGci', 'X-Auth-Token: [redacted]'],
  ])('masks %s even when the value is unknown', (_name, text, expected) => {
    expect(redactText(text)).toBe(expected);
  });

  it('leaves ordinary text alone and ignores secrets too short to be tokens', () => {
    expect(redactText('the tokenizer ran; access granted', ['ab'])).toBe('the tokenizer ran; access granted');
  });

  it('cuts a longer secret whole when a shorter one is inside it', () => {
    expect(redactText('xx-abcdef-long-xx', ['abcdef', 'abcdef-long'])).toBe('xx-[redacted]-xx');
  });
});

describe('redactValue', () => {
  it('masks sensitive keys at any depth and scrubs known values elsewhere', () => {
    const value = { headers: { api_access_token: TOKEN, Accept: 'json' }, nested: [{ note: `see ${TOKEN}` }], accessToken: 'x1', pubsub_token: 'y' };
    const out = JSON.stringify(redactValue(value, secrets));
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain('x1');
    expect(JSON.parse(out)).toMatchObject({ headers: { api_access_token: '[redacted]', Accept: 'json' }, accessToken: '[redacted]' });
  });

  it('keeps an error useful (name, message, stack, cause) and clean', () => {
    const cause = new Error(`upstream said ${TOKEN}`);
    const err = Object.assign(new Error(`request with api_access_token=${TOKEN} failed`, { cause }), { token: TOKEN, code: 'E_X' });
    const out = redactValue(err, secrets) as Record<string, unknown>;
    expect(JSON.stringify(out)).not.toContain(TOKEN);
    expect(out).toMatchObject({ name: 'Error', code: 'E_X', token: '[redacted]', cause: { message: 'upstream said [redacted]' } });
    expect(String(out.stack)).toContain('failed');
  });

  it('handles URL objects, Headers, Maps and URLSearchParams', () => {
    const out = redactValue(
      {
        url: new URL(`https://svc.example/x?api_access_token=${TOKEN}`),
        headers: new Headers({ api_access_token: TOKEN, 'content-type': 'json' }),
        map: new Map([['authorization', 'Bearer q'], ['ok', 'fine']]),
        params: new URLSearchParams({ access_token: 'p', page: '1' }),
      },
      [],
    );
    const text = JSON.stringify(out);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('Bearer q');
    expect(out).toMatchObject({ headers: { 'content-type': 'json' }, map: { ok: 'fine' }, params: { page: '1', access_token: '[redacted]' } });
  });

  it('survives cycles and very deep values', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    let deep: Record<string, unknown> = { secret: TOKEN };
    for (let i = 0; i < 20; i++) deep = { deep };
    expect(() => JSON.stringify(redactValue({ a, deep }, secrets))).not.toThrow();
    expect(JSON.stringify(redactValue({ a, deep }, secrets))).not.toContain(TOKEN);
  });
});

describe('redactingLogger', () => {
  it('scrubs messages and details of every secret the registry knows, at every level', () => {
    const lines: string[] = [];
    const registry = createSecretRegistry();
    registry.add(TOKEN);
    const log = redactingLogger((level, line) => lines.push(`${level} ${line}`), () => registry.values());
    log.info(`signing in with ${TOKEN}`);
    log.warn('failed', { request: { headers: { api_access_token: TOKEN } } });
    log.error('boom', new Error(`fetch https://svc/?api_access_token=${TOKEN}`));
    expect(lines).toHaveLength(3);
    expect(lines.join('\n')).not.toContain(TOKEN);
  });

  it('does not throw on a detail that cannot be serialised', () => {
    const lines: string[] = [];
    const log = redactingLogger((_l, line) => lines.push(line), () => []);
    log.info('big', { n: 10n });
    expect(lines[0]).toBe('big [detail not serialisable]');
  });
});

describe('the secret registry (what the bridge gate cuts)', () => {
  it('cuts every secret it holds, URL-encoded too, longest first, in one pass over the text', () => {
    const registry = createSecretRegistry();
    registry.add(TOKEN);
    registry.add('abcdef');
    registry.add('abcdef-long');
    registry.add('ab');
    expect(registry.scrub(`x ${TOKEN} y ${encodeURIComponent(TOKEN)} xx-abcdef-long-xx abcdef ab`)).toBe('x [redacted] y [redacted] xx-[redacted]-xx [redacted] ab');
    expect(registry.scrub('nothing here')).toBe('nothing here');
  });

  it('stays fast with thousands of secrets', () => {
    const registry = createSecretRegistry();
    for (let i = 0; i < 5_000; i++) registry.add(`contact-pubsub-${i.toString(36).padStart(6, '0')}-token`);
    const text = `${'ordinary words of a message, '.repeat(2_000)}contact-pubsub-000042-token`;
    const started = performance.now();
    for (let i = 0; i < 10; i++) expect(registry.scrub(text).endsWith('[redacted]')).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('learns credentials from the fields of an answer that name one, at any depth, but not from other fields', () => {
    const registry = createSecretRegistry();
    registry.harvest({
      payload: [
        { id: 1, name: 'Website chat', website_token: 'site-token-123456', hmac_token: 'hmac-secret-abcdef', inbox_identifier: 'inbox-ident-9876' },
        { contact_inbox: { source_id: 'ann@example.com', pubsub_token: 'contact-pubsub-xyz1' } },
      ],
      access_token: 'agent-token-0001',
      message_signature: 'short',
      pubsub_token: 'tiny',
    });
    expect([...registry.values()].sort()).toEqual(['agent-token-0001', 'contact-pubsub-xyz1', 'hmac-secret-abcdef', 'inbox-ident-9876', 'site-token-123456']);
    expect(registry.scrub('ann@example.com wrote hmac-secret-abcdef')).toBe('ann@example.com wrote [redacted]');
  });

  it('learns nothing a contact wrote: not from free-form attributes, not from values that are not shaped like a token', () => {
    const registry = createSecretRegistry();
    registry.harvest({
      payload: {
        custom_attributes: { access_token: 'refund-request-order-42', nested: { pubsub_token: 'AnotherContactChosenValue1' } },
        additional_attributes: { hmac_token: 'contact-chosen-value-xyz' },
        content_attributes: { secret: 'hidden-by-the-contact-123' },
        previous_changes: { pubsub_token: ['old-token-value-aaaa', 'new-token-value-bbbb'] },
      },
      access_token: 'has spaces so not a token',
      pubsub_token: 'short',
    });
    expect(registry.values()).toEqual([]);
    expect(registry.scrub('refund-request-order-42')).toBe('refund-request-order-42');
  });

  it('learns at most 10,000 credentials from answers; tokens main uses itself are always kept', () => {
    const registry = createSecretRegistry();
    registry.harvest({ items: Array.from({ length: 10_050 }, (_, i) => ({ pubsub_token: `harvested-${i}-xxxxxxxx` })) });
    registry.add('the-agents-own-token');
    expect(registry.values()).toHaveLength(10_001);
    expect(registry.scrub('the-agents-own-token')).toBe('[redacted]');
  });
});

describe('scrubSecrets', () => {
  it('copies plain data with every string and key scrubbed, and refuses cycles', () => {
    const cut = (t: string) => t.replace(/s3cret/g, '[redacted]');
    expect(scrubSecrets({ a: ['x s3cret'], s3cret: { n: 1, b: true, z: null } }, cut)).toEqual({ a: ['x [redacted]'], '[redacted]': { n: 1, b: true, z: null } });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => scrubSecrets(cyclic, cut)).toThrow();
  });
});
