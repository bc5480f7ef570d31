// The widget session token (spec: Authentication → Widget family): a signed JWT (HS256, via jose)
// with claims source_id and inbox_id, plus iat and exp. The signing key is generated once and kept
// in the database, so tokens survive restarts; it never leaves the service.
import { randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { Db } from '../db/open';
import { stmt } from '../db/open';

export const DEFAULT_WIDGET_TOKEN_LIFETIME_S = 180 * 24 * 60 * 60;
const KEY_NAME = 'widget_session_jwt_hs256';

function signingKey(db: Db, now: number): Uint8Array {
  const row = stmt(db, 'SELECT value FROM service_secrets WHERE name = ?').get(KEY_NAME) as { value: string } | undefined;
  if (row) return Buffer.from(row.value, 'base64url');
  // INSERT OR IGNORE then re-read: two processes on one file agree on a single key.
  stmt(db, 'INSERT OR IGNORE INTO service_secrets (name, value, created_at) VALUES (?, ?, ?)').run(KEY_NAME, randomBytes(32).toString('base64url'), now);
  return signingKey(db, now);
}

export interface WidgetTokenClaims {
  source_id: string;
  inbox_id: number;
}

export class WidgetTokens {
  private key: Uint8Array | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
    private readonly lifetimeSeconds = DEFAULT_WIDGET_TOKEN_LIFETIME_S,
  ) {}

  private keyFor(): Uint8Array {
    this.key ??= signingKey(this.db, this.clock());
    return this.key;
  }

  async issue(claims: WidgetTokenClaims): Promise<string> {
    const iat = Math.floor(this.clock() / 1000);
    return new SignJWT({ source_id: claims.source_id, inbox_id: claims.inbox_id })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.lifetimeSeconds)
      .sign(this.keyFor());
  }

  /** The claims of a valid, unexpired token for this inbox; undefined for anything else. */
  async verify(token: string, inboxId: number): Promise<WidgetTokenClaims | undefined> {
    if (token.length > 4096) return undefined;
    try {
      const { payload } = await jwtVerify(token, this.keyFor(), { algorithms: ['HS256'], currentDate: new Date(this.clock()) });
      if (typeof payload.source_id !== 'string' || payload.inbox_id !== inboxId || typeof payload.exp !== 'number') return undefined;
      return { source_id: payload.source_id, inbox_id: payload.inbox_id };
    } catch {
      // Malformed, forged, expired or signed for something else: all simply "no session".
      return undefined;
    }
  }
}
