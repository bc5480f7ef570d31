// The admin CLI (npm run server:admin): provisioning through store/provision.ts, and exit 2 with a
// message for bad arguments.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/admin';
import { buildService } from '../../server/app';

const dir = mkdtempSync(join(tmpdir(), 'admin-cli-'));
const db = join(dir, 'service.sqlite');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = (...args: string[]) => runAdmin([...args, '--db', db]) as Record<string, unknown>;

describe('server:admin', () => {
  it('creates an account, an administrator with a working token, API and widget inboxes, and suspends', async () => {
    const account = run('create-account', '--name', 'Initech');
    const admin = run('create-user', '--account', String(account.account_id), '--name', 'Peter', '--email', 'peter@initech.example', '--role', 'administrator');
    expect(admin).toMatchObject({ role: 'administrator', access_token: expect.any(String) });
    const api = run('create-inbox', '--account', String(account.account_id), '--name', 'App', '--kind', 'api', '--hmac-mandatory', '--webhook-url', 'https://hooks.initech.example/cms');
    expect(api).toMatchObject({ inbox_identifier: expect.any(String), hmac_token: expect.any(String), hmac_mandatory: true });
    const widget = run('create-inbox', '--account', String(account.account_id), '--name', 'Site', '--kind', 'web_widget', '--member', String(admin.user_id));
    expect(widget).toMatchObject({ website_token: expect.any(String), members: [admin.user_id] });

    const svc = await buildService({ db });
    try {
      const profile = await svc.app.inject({ url: '/api/v1/profile', headers: { api_access_token: String(admin.access_token) } });
      expect(profile.statusCode).toBe(200);
      expect((await svc.app.inject({ url: `/public/api/v1/inboxes/${String(api.inbox_identifier)}` })).json()).toMatchObject({ identity_validation_enabled: true });
      expect((await svc.app.inject({ method: 'POST', url: `/api/v1/widget/config?website_token=${String(widget.website_token)}` })).statusCode).toBe(200);
      run('suspend-account', '--account', String(account.account_id));
      const suspended = await svc.app.inject({ method: 'POST', url: `/api/v1/widget/config?website_token=${String(widget.website_token)}` });
      expect(suspended.statusCode).toBe(401);
      run('unsuspend-account', '--account', String(account.account_id));
      expect((await svc.app.inject({ method: 'POST', url: `/api/v1/widget/config?website_token=${String(widget.website_token)}` })).statusCode).toBe(200);
    } finally {
      await svc.close();
    }
  });
  it('rejects bad arguments with a message', () => {
    expect(() => run('create-inbox', '--account', '1', '--name', 'X', '--kind', 'carrier-pigeon')).toThrow('--kind must be api or web_widget');
    expect(() => run('create-user', '--account', '999', '--name', 'X', '--email', 'x@y.example')).toThrow('no account with id 999');
    expect(() => run('frobnicate')).toThrow('unknown command');
    expect(() => run('create-account', '--bogus')).toThrow();
  });
  it('exits 2 with the usage text for bad arguments', () => {
    const tsx = createRequire(import.meta.url).resolve('tsx');
    const r = spawnSync(process.execPath, ['--import', tsx, resolve(import.meta.dirname, '../../server/admin.ts'), 'create-inbox', '--db', db], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--account is required');
    expect(r.stderr).toContain('Usage: npm run server:admin');
  });
});
