// npm run web -- [--port <n>] [--sign-in <credentials.json>] [--data-dir <folder>] [--secret-file <file>] [--request-timeout-ms <ms>]
// Web mode on its own: the same main core, served to a browser at the printed address.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createMainCore } from '../core/core';
import { createPendingWork } from '../core/pending-work';
import { createSecretRegistry, redactingLogger } from '../core/redact';
import { savedSessionsFile } from '../core/session/saved-sessions';
import { memoryVault } from '../core/vault';
import { fileModeOnlyCipher } from '../core/vault/cipher';
import { fileVault } from '../core/vault/file-vault';
import { startWebHost } from './host';
import { LAUNCH_SECRET_FILE, stableLaunchSecret } from './launch-secret';

export interface DemoSignIn {
  baseUrl: string;
  accessToken: string;
}

/**
 * Starts the host; with `signIn`, the demo agent is signed in before the URL is printed. Without
 * `dataDir` tokens and saved sessions live in memory (entered each launch); with it they are kept
 * there, and since a browser host has no OS keychain, tokens are written only after the agent
 * agrees to weak storage, exactly as on a Linux desktop without a keyring.
 */
/**
 * `secretFile`: keep the launch secret there (`dataDir` implies `<dataDir>/web-launch-secret`), so a
 * restarted host takes the open tab back; without either, a new secret each launch.
 * `requestTimeoutMs`: main's per-request timeout to the service (default 15 s).
 */
export async function runWebMode(opts: { port?: number; staticDir?: string; signIn?: DemoSignIn; dataDir?: string; secretFile?: string; requestTimeoutMs?: number }) {
  const secrets = createSecretRegistry();
  const logger = redactingLogger((level, line) => console.error(`[${level}] ${line}`), () => secrets.values());
  const pending = createPendingWork();
  const stored = opts.dataDir
    ? {
        vault: fileVault({ file: join(opts.dataDir, 'tokens.json'), cipher: fileModeOnlyCipher, logger, pending }),
        savedSessions: savedSessionsFile(join(opts.dataDir, 'sessions.json'), logger, pending),
      }
    : { vault: memoryVault() };
  // Main holds the live-update socket in web mode too; the page gets its events over the bridge.
  const core = createMainCore({ ...stored, logger, secrets, pending, liveUpdates: {}, ...(opts.requestTimeoutMs ? { clientOptions: { timeoutMs: opts.requestTimeoutMs } } : {}) });
  if (opts.signIn) {
    secrets.add(opts.signIn.accessToken);
    const result = await core.call('session.signIn', opts.signIn);
    if (!result.ok) throw new Error(`Could not sign in the demo agent: ${result.error.message}`);
  }
  const secretFile = opts.secretFile ?? (opts.dataDir ? join(opts.dataDir, LAUNCH_SECRET_FILE) : undefined);
  const secret = secretFile ? await stableLaunchSecret(secretFile) : undefined;
  const host = await startWebHost({
    core,
    staticDir: opts.staticDir ?? resolve('dist/renderer'),
    logger,
    ...(opts.port === undefined ? {} : { port: opts.port }),
    ...(secret ? { secret } : {}),
  });
  secrets.add(host.url.split('#k=')[1] ?? '');
  return {
    ...host,
    core,
    async close() {
      core.closeLive();
      await host.close();
      await core.drain(2_000);
    },
  };
}

export function readDemoSignIn(file: string): DemoSignIn {
  const creds = JSON.parse(readFileSync(file, 'utf8')) as { baseUrl?: unknown; agentToken?: unknown };
  if (typeof creds.baseUrl !== 'string' || typeof creds.agentToken !== 'string') throw new Error(`${file} has no baseUrl and agentToken`);
  return { baseUrl: creds.baseUrl, accessToken: creds.agentToken };
}

const isEntry = process.argv[1] && resolve(process.argv[1]).endsWith('main/web/cli.ts');
if (isEntry) {
  const { values } = parseArgs({
    options: { port: { type: 'string', default: '0' }, 'sign-in': { type: 'string' }, 'data-dir': { type: 'string' }, 'secret-file': { type: 'string' }, 'request-timeout-ms': { type: 'string' } },
  });
  runWebMode({
    port: Number(values.port),
    ...(values['secret-file'] ? { secretFile: resolve(values['secret-file']) } : {}),
    ...(values['request-timeout-ms'] ? { requestTimeoutMs: Number(values['request-timeout-ms']) } : {}),
    ...(values['sign-in'] ? { signIn: readDemoSignIn(values['sign-in']) } : {}),
    ...(values['data-dir'] ? { dataDir: resolve(values['data-dir']) } : {}),
  })
    .then((host) => {
      console.log(`Web mode: open ${host.url}`);
      const stop = () => host.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    })
    .catch((err: unknown) => {
      console.error((err as Error).message);
      process.exit(1);
    });
}
