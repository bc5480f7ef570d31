// npm run server -- --port <n> --db <file|:memory:> [--demo] [--demo-at <ISO time>] [--credentials-out <file.json>] [--production] [--no-socketio]
// This command line is stable: other tooling and checks depend on it.
import { parseArgs } from 'node:util';
import { buildService } from './app';
import { demoCredentials, isSeeded, seedDemo } from './demo/seed';
import { writeSecretFile } from './secret-file';

const usage = `Usage: npm run server -- [--port <n>] [--host <addr>] [--db <file|:memory:>] [--demo] [--demo-at <ISO time>]
                         [--credentials-out <file.json>] [--production] [--log]
                         [--webhook-timeout-ms <ms>] [--widget-token-days <days>] [--no-socketio]
  --port              TCP port (0 picks a free one; default 3000)
  --host              address to listen on (default 127.0.0.1)
  --db                SQLite file, or :memory: (default data/service.sqlite)
  --demo              seed a demo account into an empty database
  --demo-at           seed it as of this time (default now): the same conversations, messages and
                      times of day on every run, for tests that depend on where days change
  --credentials-out   write the demo's base URL, tokens and inbox secrets as JSON (mode 0600)
  --production        turn on the spec's throttles (Limits table)
  --log               log requests (tokens are redacted)
  --webhook-timeout-ms  webhook delivery timeout (default 5000)
  --widget-token-days   widget session token lifetime (default 180)
  --public-url        the address users reach the service at, for stored links such as contact
                      avatars (default: the address it listens on; set it behind a reverse proxy)
  --no-socketio       live updates over ActionCable (/cable) only, as a real Chatwoot installation
                      serves them (socket.io at /socket.io/ is on by default)`;

function parse() {
  try {
    const { values } = parseArgs({
      options: {
        port: { type: 'string', default: '3000' },
        host: { type: 'string', default: '127.0.0.1' },
        db: { type: 'string', default: 'data/service.sqlite' },
        demo: { type: 'boolean', default: false },
        'demo-at': { type: 'string' },
        'credentials-out': { type: 'string' },
        production: { type: 'boolean', default: false },
        log: { type: 'boolean', default: false },
        'webhook-timeout-ms': { type: 'string', default: '5000' },
        'widget-token-days': { type: 'string', default: '180' },
        'public-url': { type: 'string' },
        'no-socketio': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    });
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0-65535, got ${values.port}`);
    const webhookTimeoutMs = Number(values['webhook-timeout-ms']);
    const widgetTokenDays = Number(values['widget-token-days']);
    if (!Number.isInteger(webhookTimeoutMs) || webhookTimeoutMs < 1 || webhookTimeoutMs > 600_000) throw new Error('--webhook-timeout-ms must be 1-600000');
    if (!(widgetTokenDays > 0 && widgetTokenDays <= 3650)) throw new Error('--widget-token-days must be more than 0 and at most 3650');
    const publicUrl = values['public-url'] === undefined ? undefined : publicUrlOf(values['public-url']);
    const demoAt = values['demo-at'] === undefined ? undefined : Date.parse(values['demo-at']);
    if (demoAt !== undefined && !Number.isFinite(demoAt)) throw new Error(`--demo-at must be an ISO time, got ${values['demo-at']}`);
    return { ...values, port, webhookTimeoutMs, widgetTokenDays, publicUrl, demoAt };
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${usage}`);
    process.exit(2);
  }
}

/** An http(s) origin, with a path prefix if the service sits under one; no trailing slash. */
function publicUrlOf(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`--public-url must be an http or https URL, got ${text}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`--public-url must be an http or https URL, got ${text}`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

async function main() {
  const args = parse();
  if (args.help) {
    console.log(usage);
    return;
  }
  // Known once listening (the port may be 0); links are only stored after that.
  let listeningAt: string | undefined = undefined;
  const service = await buildService({
    db: args.db,
    publicUrl: () => args.publicUrl ?? listeningAt,
    production: args.production,
    logger: args.log,
    webhooks: { timeoutMs: args.webhookTimeoutMs },
    widgetTokenLifetimeSeconds: Math.round(args.widgetTokenDays * 86_400),
    live: { socketIo: !args['no-socketio'] },
  });
  if (args.demo && !isSeeded(service.db)) {
    const started = Date.now();
    seedDemo(service.db, args.demoAt ?? service.clock());
    console.log(`Seeded the demo account in ${Date.now() - started} ms`);
  }
  await service.app.listen({ port: args.port, host: args.host });
  const address = service.app.server.address();
  const port = typeof address === 'object' && address ? address.port : args.port;
  const baseUrl = `http://${args.host.includes(':') ? `[${args.host}]` : args.host}:${port}`;
  listeningAt = baseUrl;
  if (args['credentials-out']) {
    if (!isSeeded(service.db)) {
      console.error('--credentials-out needs demo data: add --demo');
      process.exit(2);
    }
    const creds = { baseUrl, ...demoCredentials(service.db) };
    // 0600 even when the file already exists (a plain write keeps an existing file's mode).
    writeSecretFile(args['credentials-out'], JSON.stringify(creds, null, 2) + '\n');
  }
  const notes = [args.production ? 'production throttles on' : '', args['no-socketio'] ? 'live updates over ActionCable only' : ''].filter(Boolean);
  console.log(`Customer Messaging Service listening on ${baseUrl}${notes.length ? ` (${notes.join(', ')})` : ''}`);
  const stop = async () => {
    await service.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(`The service could not start: ${(err as Error).message}`);
  process.exit(1);
});
