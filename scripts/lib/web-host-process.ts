// Starts web mode's host (main/web/cli.ts) as a child process and waits for the address it
// prints, so a test or the chaos suite can stop it the hard way (SIGKILL) and start it again on
// the same port with the same kept launch secret.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

export interface RunningWebHost {
  /** The address to open, with the launch secret in the fragment. */
  url: string;
  port: number;
  child: ChildProcess;
  /** Ends it: SIGTERM closes it cleanly, SIGKILL as a crash would. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const root = resolve(import.meta.dirname, '../..');
const tsxLoader = createRequire(import.meta.url).resolve('tsx');

/** Serves the built renderer (`dist/renderer`, `npm run build` or `vite build`). `signIn`: a credentials file (`--credentials-out`). */
export async function startWebHostProcess(opts: { port?: number; secretFile?: string; signIn?: string; requestTimeoutMs?: number; quiet?: boolean }): Promise<RunningWebHost> {
  const args = ['--import', tsxLoader, resolve(root, 'main/web/cli.ts'), '--port', String(opts.port ?? 0)];
  if (opts.secretFile) args.push('--secret-file', opts.secretFile);
  if (opts.signIn) args.push('--sign-in', opts.signIn);
  if (opts.requestTimeoutMs) args.push('--request-timeout-ms', String(opts.requestTimeoutMs));
  const { FORCE_COLOR: _colour, ...env } = process.env;
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((done, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (!opts.quiet) process.stdout.write(chunk.toString().replace(/^/gm, '[web host] '));
      const match = /Web mode: open (http:\/\/\S+)/.exec(out);
      if (match) done(match[1]!);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!opts.quiet) process.stderr.write(chunk.toString().replace(/^/gm, '[web host] '));
    });
    child.once('exit', (code) => reject(new Error(`The web host exited (${code}) before listening:\n${out}`)));
  });
  return {
    url,
    port: Number(new URL(url).port),
    child,
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill(signal);
      }),
  };
}
