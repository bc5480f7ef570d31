// Identity verification (spec: Authentication → Identity verification, rules 1–7).
// identifier_hash = hex HMAC-SHA256 of the `identifier` sent in the same request, keyed by the
// inbox's hmac_token. Accepted in lowercase or plain (upper) hex; compared in constant time.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { HttpError } from './errors';

const HMAC_FAILED = 'HMAC failed: Invalid Identifier Hash Provided';

/**
 * Client family (rule 6): both failures are HTTP 500 with this message. The spec does not show the
 * body; we use its single-message shape `{error}`, so clients reading `error` first find it.
 */
export const clientHmacFailure = () => new HttpError(500, { error: HMAC_FAILED });
/** Widget family (chatwoot-compat §6.3): 401 with the same message. */
export const widgetHmacFailure = () => new HttpError(401, { error: HMAC_FAILED });

function identifierHash(hmacToken: string, identifier: string): string {
  return createHmac('sha256', hmacToken).update(identifier, 'utf8').digest('hex');
}

/** Constant-time check of a caller's hash against the expected one (any letter case). */
function hashMatches(hmacToken: string, identifier: string, provided: string): boolean {
  const expected = Buffer.from(identifierHash(hmacToken, identifier), 'utf8');
  const given = Buffer.from(provided.toLowerCase(), 'utf8');
  // Lengths are not secret (every valid hash is 64 hex digits); the comparison of equal-length
  // buffers is what must not leak how many leading characters matched.
  if (given.length !== expected.length) {
    timingSafeEqual(expected, expected);
    return false;
  }
  return timingSafeEqual(expected, given);
}

export type Verification = 'verified' | 'not_required' | 'failed';

/**
 * Rules 4 and 5: no hash is fine unless the inbox requires one; a hash that is sent must match.
 * A blank hash (`""`, what form builders send for an empty field) is no hash, as Rails'
 * `identifier_hash.present?` reads it. `identifier` missing means the empty string (the hash is
 * over what was sent, nothing else).
 */
export function verifyIdentity(
  inbox: { hmac_token: string; hmac_mandatory: number },
  input: { identifier?: string | null | undefined; identifier_hash?: string | null | undefined },
): Verification {
  const hash = input.identifier_hash;
  if (hash === undefined || hash === null || hash.trim() === '') return inbox.hmac_mandatory === 1 ? 'failed' : 'not_required';
  return hashMatches(inbox.hmac_token, input.identifier ?? '', hash) ? 'verified' : 'failed';
}
