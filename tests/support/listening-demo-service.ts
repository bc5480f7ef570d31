// The demo service in this process, listening on a real port (for the browser), with its database
// at hand so a test can provision users (several accounts) or revoke a token (expiry).
import { buildService } from '../../server/app';
import type { Db } from '../../server/db/open';
import { seedDemo } from '../../server/demo/seed';
import type { DemoCredentials } from '../../server/demo/seed';
import { addToAccount, createUser, secret } from '../../server/store/provision';

export interface ListeningDemo {
  baseUrl: string;
  creds: DemoCredentials;
  db: Db;
  /** A user in both demo accounts (agent in Acme Support, administrator in Globex Corp). */
  multiAccountUser(): { id: number; token: string; email: string };
  revokeTokens(userId: number): void;
  issueToken(userId: number): string;
  userIdOf(token: string): number;
  close(): Promise<void>;
}

export async function startListeningDemo(): Promise<ListeningDemo> {
  const service = await buildService({ db: ':memory:' });
  const creds = seedDemo(service.db, Date.now());
  await service.app.listen({ host: '127.0.0.1', port: 0 });
  const address = service.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const db = service.db;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    creds,
    db,
    multiAccountUser() {
      const email = `multi-${Date.now()}@acme.example`;
      const user = createUser(db, { name: 'Morgan Multi', email }, Date.now());
      addToAccount(db, creds.accountId, user.id, 'agent', Date.now() - 1000);
      addToAccount(db, creds.otherAccountId, user.id, 'administrator', Date.now());
      return { ...user, email };
    },
    revokeTokens: (userId) => void db.prepare("DELETE FROM access_tokens WHERE owner_type = 'User' AND owner_id = ?").run(userId),
    issueToken(userId) {
      const token = secret();
      db.prepare("INSERT INTO access_tokens (token, owner_type, owner_id) VALUES (?, 'User', ?)").run(token, userId);
      return token;
    },
    userIdOf: (token) => (db.prepare('SELECT owner_id AS id FROM access_tokens WHERE token = ?').get(token) as { id: number }).id,
    close: () => service.close(),
  };
}
