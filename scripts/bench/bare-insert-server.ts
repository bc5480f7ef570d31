// The floor under a message create, for bench:server: bare Node HTTP (no framework) and one
// SQLite message insert per request, in its own transaction, on the service's own database setup
// (openDatabase: WAL, synchronous=NORMAL, the schema with its triggers, the background
// checkpointer). It reads the JSON body, inserts, and answers the new row's id and content. Its
// creates per second, against hello world in the same run, are what no service doing that much
// per request can exceed on this machine. Prints its address when ready.
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inTransaction, openDatabase, stmt } from '../../server/db/open';
import { seedDemo } from '../../server/demo/seed';

const dir = mkdtempSync(join(tmpdir(), 'bench-bare-'));
const db = openDatabase(join(dir, 'bare.sqlite'));
seedDemo(db, Date.now());
const conversation = db.prepare('SELECT id, account_id, inbox_id FROM conversations ORDER BY id LIMIT 1').get() as { id: number; account_id: number; inbox_id: number };
const insert = stmt(
  db,
  `INSERT INTO messages (account_id, inbox_id, conversation_id, message_type, content_type, content, private, status, content_attributes, created_at, updated_at)
   VALUES (?, ?, ?, 0, 'text', ?, 0, 'sent', '{}', ?, ?)`,
);

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const { content } = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { content?: string };
    const now = Date.now();
    const id = inTransaction(db, () => Number(insert.run(conversation.account_id, conversation.inbox_id, conversation.id, content ?? '', now, now).lastInsertRowid));
    const body = JSON.stringify({ id, content });
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  console.log(`listening on http://127.0.0.1:${address.port}`);
});
process.once('SIGTERM', () => {
  server.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
