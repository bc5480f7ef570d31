// WAL checkpoints off the request path. better-sqlite3 is synchronous, so the checkpoint SQLite runs
// inside a commit every 1,000 pages (copying pages back into the database file and syncing it)
// stalls every request behind it. Here the service's connection checkpoints on its own only as a
// backstop (every BACKSTOP_PAGES), and a worker thread with its own connection to the same file
// runs a PASSIVE checkpoint (it never blocks a writer or a reader) every INTERVAL_MS. Durability is
// unchanged: WAL with synchronous=NORMAL on both connections, as before.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

const INTERVAL_MS = 200;
/** The service's own checkpoint, should the worker fall behind or fail: a WAL of about 40 MB. */
const BACKSTOP_PAGES = 10_000;

/** Runs in the worker (CommonJS, evaluated): its own connection, a passive checkpoint now and then. */
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
const checkpoint = () => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} };
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); checkpoint(); db.close(); parentPort.close(); });
`;

/**
 * Moves checkpoints of `db` (a WAL database file) to a worker thread. The worker does not keep the
 * process alive while it runs; `stop()` ends it after a last checkpoint, and resolves once it has
 * closed its connection (until then it may still write the WAL and its index beside the file).
 * From `stop()` on it does keep the process alive: a process with nothing else left to do (a script
 * that awaits the release, then removes the folder) would otherwise exit before the promise resolved.
 */
export function checkpointInBackground(db: Database.Database, file: string): { stop(): Promise<void> } {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { module, file, intervalMs: INTERVAL_MS } });
  worker.unref();
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  // Should the worker fail, the service checkpoints on its own again, as SQLite does by default.
  worker.once('error', () => db.open && db.pragma('wal_autocheckpoint = 1000'));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    stop: () => {
      worker.ref();
      worker.postMessage('stop');
      return exited;
    },
  };
}
