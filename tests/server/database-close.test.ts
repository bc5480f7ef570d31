// Closing the service lets go of its database file: the checkpointer's worker (server/db/checkpointer.ts)
// keeps a connection of its own and closed it a moment after the service's close had returned, so a
// folder removed right then could get the worker's WAL written into it (CI: ENOTEMPTY in
// widget-api.test.ts's restart case).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
});
