// The service's command line (npm run server): --credentials-out writes the demo's secrets readable
// by the owner only, whether or not the file already existed.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSecretFile } from '../../server/secret-file';
import { startService } from '../../scripts/lib/service-process';
import { openRawCable } from '../support/raw-cable';

const dir = mkdtempSync(join(tmpdir(), 'service-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const modeOf = (path: string) => statSync(path).mode & 0o777;

/** A file another user could read, as a previous run under a wider umask (or a copy) may have left. */
function worldReadable(name: string) {
  const path = join(dir, name);
  writeFileSync(path, '{"old": true}\n');
  chmodSync(path, 0o644);
  expect(modeOf(path)).toBe(0o644);
  return path;
}

describe('npm run server -- --credentials-out', () => {
  it('replaces an existing world-readable file with one only the owner can read', { timeout: 60_000 }, async () => {
    const out = worldReadable('credentials.json');
    // The file is written before the service says it listens, which is when this returns.
    const service = await startService({ db: ':memory:', demo: true, credentialsOut: out, quiet: true });
    try {
      expect(modeOf(out)).toBe(0o600);
      expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), adminToken: expect.any(String) });
    } finally {
      await service.stop();
    }
  });
});

describe('writeSecretFile', () => {
  it('creates a new file 0600, and turns an existing wider one into a 0600 file with the new text, leaving no temporary file', () => {
    const fresh = join(dir, 'fresh.json');
    writeSecretFile(fresh, 'secret 1');
    expect([modeOf(fresh), readFileSync(fresh, 'utf8')]).toEqual([0o600, 'secret 1']);
    const wide = worldReadable('wide.json');
    writeSecretFile(wide, 'secret 2');
    expect([modeOf(wide), readFileSync(wide, 'utf8')]).toEqual([0o600, 'secret 2']);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('npm run server -- --public-url', () => {
  it('refuses anything but an http or https URL, saying which, with exit code 2', { timeout: 60_000 }, () => {
    const tsx = createRequire(import.meta.url).resolve('tsx');
    for (const bad of ['ftp://files.example', 'javascript:alert(1)', 'not a url']) {
      const run = spawnSync(process.execPath, ['--import', tsx, resolve(import.meta.dirname, '../../server/cli.ts'), '--db', ':memory:', '--public-url', bad], { encoding: 'utf8' });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(`--public-url must be an http or https URL, got ${bad}`);
    }
  });
});

describe('npm run server -- --no-socketio', () => {
  it('serves live updates over ActionCable only: /socket.io/ is not found, /cable welcomes', { timeout: 60_000 }, async () => {
    const handshake = (baseUrl: string) => fetch(`${baseUrl}/socket.io/?EIO=4&transport=polling`).then((r) => r.status);
    const both = await startService({ db: ':memory:', quiet: true });
    const cableOnly = await startService({ db: ':memory:', quiet: true, noSocketIo: true });
    try {
      expect(await handshake(both.baseUrl)).toBe(200);
      expect(await handshake(cableOnly.baseUrl)).toBe(404);
      for (const url of [both.baseUrl, cableOnly.baseUrl]) {
        const cable = await openRawCable(url);
        expect(await cable.next((f) => f.type === 'welcome', 0)).toEqual({ type: 'welcome' });
        cable.ws.close();
      }
    } finally {
      await both.stop();
      await cableOnly.stop();
    }
  });
});
