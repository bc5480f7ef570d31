// npm run web -- [--port <n>] [--sign-in <credentials.json>]
// Web mode on its own: the same main core, served to a browser at the printed address.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createMainCore } from '../core/core';
import { redactingLogger } from '../core/redact';
import { memoryVault } from '../core/vault';
import { startWebHost } from './host';

export interface DemoSignIn {
  baseUrl: string;
  accessToken: string;
}

/** Starts the host; with `signIn`, the demo agent is signed in before the URL is printed. */
export async function runWebMode(opts: { port?: number; staticDir?: string; signIn?: DemoSignIn }) {
  const secrets: string[] = [];
  const logger = redactingLogger((level, line) => console.error(`[${level}] ${line}`), () => secrets);
  const core = createMainCore({ vault: memoryVault(), logger });
  if (opts.signIn) {
    secrets.push(opts.signIn.accessToken);
    const result = await core.call('session.signIn', opts.signIn);
    if (!result.ok) throw new Error(`Could not sign in the demo agent: ${result.error.message}`);
  }
  const host = await startWebHost({ core, staticDir: opts.staticDir ?? resolve('dist/renderer'), logger, ...(opts.port === undefined ? {} : { port: opts.port }) });
  secrets.push(host.url.split('#k=')[1] ?? '');
  return host;
}

export function readDemoSignIn(file: string): DemoSignIn {
  const creds = JSON.parse(readFileSync(file, 'utf8')) as { baseUrl?: unknown; agentToken?: unknown };
  if (typeof creds.baseUrl !== 'string' || typeof creds.agentToken !== 'string') throw new Error(`${file} has no baseUrl and agentToken`);
  return { baseUrl: creds.baseUrl, accessToken: creds.agentToken };
}

const isEntry = process.argv[1] && resolve(process.argv[1]).endsWith('main/web/cli.ts');
if (isEntry) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, 'sign-in': { type: 'string' } } });
  runWebMode({ port: Number(values.port), ...(values['sign-in'] ? { signIn: readDemoSignIn(values['sign-in']) } : {}) })
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
