// Starts the service CLI (server/cli.ts) as a child process and waits until it listens. Used by
// `npm start`, the end-to-end tests and the benchmarks, so all of them run the real command line.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { DemoCredentials } from '../../server/demo/seed';

/** What `--credentials-out` writes: the seed's credentials and where the service listens. */
export type DemoCredentialsFile = DemoCredentials & { baseUrl: string };

export interface RunningService {
  baseUrl: string;
  credentials?: DemoCredentialsFile;
  child: ChildProcess;
  /** Everything the service printed so far (stdout and stderr): the request log with `log`. */
  output(): string;
  stop(): Promise<void>;
}

const root = resolve(import.meta.dirname, '../..');
const tsxLoader = createRequire(import.meta.url).resolve('tsx');

export async function startService(opts: {
  db: string;
  port?: number;
  demo?: boolean;
  /** Seed the demo as of this time (epoch ms; `--demo-at`) instead of now. */
  demoAt?: number;
  credentialsOut?: string;
  production?: boolean;
  quiet?: boolean;
  /** Live updates over ActionCable only (`--no-socketio`), as a real Chatwoot installation. */
  noSocketIo?: boolean;
  /** The request log (`--log`), read back with `output()`. */
  log?: boolean;
  /** Flags for Node itself, before the script (the benchmark's `--cpu-prof`). */
  nodeArgs?: string[];
}): Promise<RunningService> {
  const args = [...(opts.nodeArgs ?? []), '--import', tsxLoader, resolve(root, 'server/cli.ts'), '--port', String(opts.port ?? 0), '--db', opts.db];
  if (opts.demo) args.push('--demo');
  if (opts.demoAt !== undefined) args.push('--demo-at', new Date(opts.demoAt).toISOString());
  if (opts.credentialsOut) args.push('--credentials-out', opts.credentialsOut);
  if (opts.production) args.push('--production');
  if (opts.noSocketIo) args.push('--no-socketio');
  if (opts.log) args.push('--log');
  // Its output is piped into our log, never a terminal: without FORCE_COLOR (Playwright sets it), a
  // NO_COLOR from CI no longer makes Node warn about the pair on every start.
  const { FORCE_COLOR: _colour, ...env } = process.env;
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const baseUrl = await new Promise<string>((resolvePromise, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (!opts.quiet) process.stdout.write(chunk.toString().replace(/^/gm, '[service] '));
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolvePromise(match[1]!);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      process.stderr.write(chunk.toString().replace(/^/gm, '[service] '));
    });
    child.once('exit', (code) => reject(new Error(`The service exited (${code}) before listening:\n${out}`)));
  });
  const credentials = opts.credentialsOut ? (JSON.parse(readFileSync(opts.credentialsOut, 'utf8')) as DemoCredentialsFile) : undefined;
  return {
    baseUrl,
    ...(credentials ? { credentials } : {}),
    child,
    output: () => out,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
