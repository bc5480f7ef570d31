// Closing the service lets go of its database file: the checkpointer's worker (server/db/checkpointer.ts)
// keeps a connection of its own and closed it a moment after the service's close had returned, so a
// folder removed right then could get the worker's WAL written into it (CI: ENOTEMPTY in
// widget-api.test.ts's restart case).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildService } from '../../server/app';
import { seedDemo } from '../../server/demo/seed';

describe('closing the service', () => {
  it('returns once no connection to its database file is left open (SQLite then removes the WAL and its index)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'service-close-'));
    const file = join(dir, 'service.sqlite');
    try {
      const service = await buildService({ db: file });
      seedDemo(service.db, Date.now());
      expect(existsSync(`${file}-wal`)).toBe(true);
      await service.close();
      // The last connection to close removes both; while the worker's is open, they stay.
      expect([existsSync(`${file}-wal`), existsSync(`${file}-shm`)]).toEqual([false, false]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('holds a process with nothing else to do until the database is released, so a script can await it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'db-release-'));
    try {
      // A script whose only work left is the release: it says when it got it.
      const script = join(dir, 'release.mts');
      writeFileSync(
        script,
        `import { databaseReleased, openDatabase } from ${JSON.stringify(resolve(import.meta.dirname, '../../server/db/open.ts'))};
const db = openDatabase(${JSON.stringify(join(dir, 'x.sqlite'))});
db.close();
await databaseReleased(db);
console.log('released');
`,
      );
      const tsx = createRequire(import.meta.url).resolve('tsx');
      const run = spawnSync(process.execPath, ['--import', tsx, script], { encoding: 'utf8', timeout: 30_000 });
      expect({ status: run.status, stdout: run.stdout.trim() }).toEqual({ status: 0, stdout: 'released' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
