// npm run server:admin -- <command> [options] --db <file>
// Provisioning for a real installation, through the same store/provision.ts the demo seed uses.
// Prints what it created, secrets included (they are shown once; keep them safe). Bad arguments
// exit 2 with a message and the usage text.
import { parseArgs } from 'node:util';
import type { Db } from './db/open';
import { openDatabase, stmt } from './db/open';
import { addInboxMember, addToAccount, createAccount, createInbox, createUser } from './store/provision';

const usage = `Usage: npm run server:admin -- <command> [options] [--db <file>]

Commands:
  create-account    --name <name>
  create-user       --account <id> --name <name> --email <email> [--role agent|administrator]
                    (an existing email is added to the account; a new user also gets an access token)
  create-inbox      --account <id> --name <name> --kind api|web_widget
                    [--hmac-mandatory] [--webhook-url <url>] [--website-url <url>] [--member <user id>]...
  suspend-account   --account <id>
  unsuspend-account --account <id>
  list-accounts

Options:
  --db      SQLite file of the service (default data/service.sqlite)
  --json    print the result as JSON
  --help    this text`;

class UsageError extends Error {}

const options = {
  db: { type: 'string', default: 'data/service.sqlite' },
  name: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string', default: 'agent' },
  account: { type: 'string' },
  kind: { type: 'string' },
  'hmac-mandatory': { type: 'boolean', default: false },
  'webhook-url': { type: 'string' },
  'website-url': { type: 'string' },
  member: { type: 'string', multiple: true },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const;
type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

function required(values: Values, key: 'name' | 'email' | 'account' | 'kind'): string {
  const v = values[key];
  if (typeof v !== 'string' || !v.trim()) throw new UsageError(`--${key} is required`);
  return v.trim();
}

function accountId(db: Db, values: Values): number {
  const raw = required(values, 'account');
  const id = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(id)) throw new UsageError(`--account must be an account id, got ${raw}`);
  if (!stmt(db, 'SELECT 1 FROM accounts WHERE id = ?').get(id)) throw new UsageError(`no account with id ${id}`);
  return id;
}

function httpUrl(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  try {
    const u = new URL(value);
    if (u.protocol === 'http:' || u.protocol === 'https:') return value;
  } catch {
    // reported below
  }
  throw new UsageError(`${flag} must be an http or https URL`);
}

export function runAdmin(argv: string[], now = Date.now()): Record<string, unknown> | Record<string, unknown>[] {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, ...extra] = positionals;
  if (!command) throw new UsageError('a command is required');
  if (extra.length) throw new UsageError(`unexpected argument: ${extra[0]}`);
  const commands = ['create-account', 'create-user', 'create-inbox', 'suspend-account', 'unsuspend-account', 'list-accounts'];
  if (!commands.includes(command)) throw new UsageError(`unknown command: ${command}`);
  const db = openDatabase(values.db);
  try {
    switch (command) {
      case 'create-account': {
        const name = required(values, 'name');
        return { account_id: createAccount(db, name, now), name };
      }
      case 'create-user': {
        const account = accountId(db, values);
        const role = values.role;
        if (role !== 'agent' && role !== 'administrator') throw new UsageError('--role must be agent or administrator');
        const email = required(values, 'email').toLowerCase();
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new UsageError(`--email is not an email address: ${email}`);
        const existing = stmt(db, 'SELECT id FROM users WHERE email = ?').get(email) as { id: number } | undefined;
        if (existing && stmt(db, 'SELECT 1 FROM account_users WHERE account_id = ? AND user_id = ?').get(account, existing.id)) {
          throw new UsageError(`${email} is already in account ${account}`);
        }
        return db.transaction(() => {
          const user = existing ? { id: existing.id, token: null } : createUser(db, { name: required(values, 'name'), email }, now);
          addToAccount(db, account, user.id, role, now);
          return { user_id: user.id, email, account_id: account, role, ...(user.token ? { access_token: user.token } : { note: 'existing user: their access token is unchanged' }) };
        })();
      }
      case 'create-inbox': {
        const account = accountId(db, values);
        const kind = required(values, 'kind');
        if (kind !== 'api' && kind !== 'web_widget') throw new UsageError('--kind must be api or web_widget');
        const webhookUrl = httpUrl(values['webhook-url'], '--webhook-url');
        const websiteUrl = httpUrl(values['website-url'], '--website-url');
        if (webhookUrl && kind !== 'api') throw new UsageError('--webhook-url is only for api inboxes');
        const members = (values.member ?? []).map((m) => {
          const id = Number(m);
          if (!/^\d+$/.test(m) || !stmt(db, 'SELECT 1 FROM account_users WHERE account_id = ? AND user_id = ?').get(account, id)) {
            throw new UsageError(`--member ${m} is not a user of account ${account}`);
          }
          return id;
        });
        return db.transaction(() => {
          const inbox = createInbox(db, account, { name: required(values, 'name'), kind, hmacMandatory: values['hmac-mandatory'], ...(webhookUrl ? { webhookUrl } : {}), ...(websiteUrl ? { websiteUrl } : {}) }, now);
          for (const m of members) addInboxMember(db, inbox.id, m);
          return {
            inbox_id: inbox.id,
            kind,
            ...(inbox.identifier ? { inbox_identifier: inbox.identifier } : {}),
            ...(inbox.websiteToken ? { website_token: inbox.websiteToken } : {}),
            hmac_token: inbox.hmacToken,
            hmac_mandatory: values['hmac-mandatory'],
            members,
          };
        })();
      }
      case 'suspend-account':
      case 'unsuspend-account': {
        const account = accountId(db, values);
        const status = command === 'suspend-account' ? 'suspended' : 'active';
        stmt(db, 'UPDATE accounts SET status = ? WHERE id = ?').run(status, account);
        return { account_id: account, status };
      }
      default:
        return stmt(db, 'SELECT a.id AS account_id, a.name, a.status, (SELECT COUNT(*) FROM account_users au WHERE au.account_id = a.id) AS users, (SELECT COUNT(*) FROM inboxes i WHERE i.account_id = a.id) AS inboxes FROM accounts a ORDER BY a.id').all() as Record<string, unknown>[];
    }
  } finally {
    db.close();
  }
}

function print(result: Record<string, unknown> | Record<string, unknown>[], asJson: boolean) {
  if (asJson) return console.log(JSON.stringify(result, null, 2));
  for (const row of Array.isArray(result) ? result : [result]) {
    console.log(Object.entries(row).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(',') : String(v)}`).join('\n'));
    if (Array.isArray(result)) console.log('');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.length === 0) {
    console.log(usage);
    process.exit(argv.length === 0 ? 2 : 0);
  }
  try {
    print(runAdmin(argv), argv.includes('--json'));
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n\n${usage}`);
      process.exit(2);
    }
    console.error(`server:admin failed: ${(err as Error).message}`);
    process.exit(1);
  }
}
