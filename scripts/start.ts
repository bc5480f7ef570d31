// npm start: the desktop app with the embedded demo service, demo agent signed in.
// Where Electron cannot start it says why in one line and starts web mode instead.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runWebMode } from '../main/web/cli';
import { buildElectron, ensureRendererBuilt } from './lib/build';
import { electronBinary } from './lib/electron-binary';
import { startService } from './lib/service-process';

// Stable default ports: the browser keys IndexedDB by origin (and the cache by service address),
// so the same ports every launch keep web mode's cache. Busy ports fall back to free ones.
const { values } = parseArgs({
  options: {
    web: { type: 'boolean', default: false },
    port: { type: 'string', default: '4477' },
    'service-port': { type: 'string', default: '4470' },
  },
});
const dataDir = resolve(import.meta.dirname, '../data');
mkdirSync(dataDir, { recursive: true });

const staticDir = await ensureRendererBuilt();
const credentialsFile = resolve(dataDir, 'demo-credentials.json');
const serviceOptions = { db: resolve(dataDir, 'demo-service.sqlite'), demo: true, credentialsOut: credentialsFile, quiet: true };
const service = await startService({ ...serviceOptions, port: Number(values['service-port']) }).catch(() => {
  console.log(`Port ${values['service-port']} is busy; the demo service takes a free port.`);
  return startService({ ...serviceOptions, port: 0 });
});
console.log(`Embedded demo service: ${service.baseUrl}`);
const stopAll = async (code = 0) => {
  await service.stop();
  process.exit(code);
};
process.once('SIGINT', () => void stopAll());
process.once('SIGTERM', () => void stopAll());

async function startWebMode(reason: string) {
  console.log(`Electron cannot start: ${reason}. Starting web mode instead.`);
  const creds = service.credentials!;
  const signIn = { baseUrl: creds.baseUrl, accessToken: creds.agentToken };
  // The launch secret is kept in data/: a restarted `npm start` takes the open tab back by itself.
  const secretFile = resolve(dataDir, 'web-launch-secret');
  const host = await runWebMode({ port: Number(values.port), staticDir, signIn, secretFile }).catch(() => {
    console.log(`Port ${values.port} is busy; web mode takes a free port (the browser cache starts empty there).`);
    return runWebMode({ port: 0, staticDir, signIn, secretFile });
  });
  console.log(`Web mode: open ${host.url}`);
}

/** An Electron that dies this soon after launch never showed a window: fall back to web mode. */
const EARLY_EXIT_MS = 15_000;

const electron = values.web ? { reason: 'web mode was asked for (--web)' } : electronBinary();
if ('path' in electron) {
  await buildElectron();
  const launchedAt = Date.now();
  const child = spawn(electron.path, [resolve(import.meta.dirname, '../dist/main/electron-main.cjs')], {
    stdio: ['ignore', 'inherit', 'pipe'],
    // Its own user-data folder, so the demo's saved session and token never mix with an installed app's.
    env: { ...process.env, AGENT_INBOX_DEMO_CREDENTIALS: credentialsFile, AGENT_INBOX_RENDERER: staticDir, AGENT_INBOX_USER_DATA: resolve(dataDir, 'electron-user-data') },
  });
  // Keep the last thing Electron said, so an early crash can be explained in one line.
  let lastError = '';
  child.stderr.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    const lines = chunk.toString().split('\n').map((l) => l.trim()).filter(Boolean);
    if (lines.length) lastError = lines.at(-1)!;
  });
  child.once('exit', (code, signal) => {
    const failed = code !== 0 || signal !== null;
    if (failed && Date.now() - launchedAt < EARLY_EXIT_MS) {
      const why = `it exited at launch (${signal ?? `code ${code}`})${lastError ? `: ${lastError.slice(0, 200).replace(/[.\s]+$/, '')}` : ''}`;
      void startWebMode(why);
    } else void stopAll(code ?? 0);
  });
} else {
  await startWebMode(electron.reason);
}
