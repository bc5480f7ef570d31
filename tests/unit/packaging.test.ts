// Packaging: runs `electron-builder --dir` for Linux against a stand-in Electron (no binary can be
// downloaded here), then checks what was packed. The app.asar must hold the bundled app and
// nothing else: no node_modules (so no better-sqlite3), no server/, no tests, no source maps, no
// TypeScript. The fuses the config asks for must be flipped in the (stand-in) executable, and the
// config must name every platform's targets and real icon files.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { listPackage, extractFile } from '@electron/asar';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { icnsTypes, pngSize } from '../../scripts/lib/png';

const root = resolve(import.meta.dirname, '../..');
const ELECTRON_VERSION = (JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')) as { version: string }).version;
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const FUSES = ['RunAsNode', 'EnableCookieEncryption', 'EnableNodeOptionsEnvironmentVariable', 'EnableNodeCliInspectArguments', 'EnableEmbeddedAsarIntegrityValidation', 'OnlyLoadAppFromAsar', 'LoadBrowserProcessSpecificV8Snapshot', 'GrantFileProtocolExtraPrivileges'];

let out: string;
let log: string;
let status: number | null;
let asarFiles: string[];
const asar = () => join(out, 'linux-unpacked', 'resources', 'app.asar');
/** The renderer's built scripts (the entry and the worker): their paths. */
const builtScripts = () => {
  const assets = join(root, 'dist/renderer/assets');
  return readdirSync(assets).filter((f) => f.endsWith('.js')).map((f) => join(assets, f));
};

/** A folder shaped like an unpacked Electron for Linux: an `electron` executable carrying a fuse wire (all fuses on). */
function standInElectron(): string {
  const dir = mkdtempSync(join(tmpdir(), 'electron-dist-'));
  mkdirSync(join(dir, 'resources'));
  const wire = Buffer.concat([Buffer.from(SENTINEL), Buffer.from([1, FUSES.length]), Buffer.from('1'.repeat(FUSES.length))]);
  writeFileSync(join(dir, 'electron'), Buffer.concat([Buffer.from('#!/bin/sh\necho "stand-in Electron"\n# '), wire, Buffer.from('\n')]));
  chmodSync(join(dir, 'electron'), 0o755);
  return dir;
}

// electron-builder stays silent when it sees VITEST in its environment; its log is asserted on.
// Vitest's NODE_ENV=test must not reach the build either: Vite then builds React's development
// bundle into dist/renderer, which the benchmarks and the end-to-end tests run afterwards.
const childEnv = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_ENV')), ELECTRON_SKIP_BINARY_DOWNLOAD: '1', NO_COLOR: '1' };
const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { cwd: root, encoding: 'utf8', env: childEnv });

beforeAll(() => {
  const renderer = run('npx', ['--no-install', 'vite', 'build', '--logLevel', 'warn']);
  expect(renderer.status, renderer.stderr).toBe(0);
  const main = run('npx', ['--no-install', 'tsx', 'scripts/build-electron.ts']);
  expect(main.status, main.stderr).toBe(0);
  out = mkdtempSync(join(tmpdir(), 'release-'));
  const result = run('npx', ['--no-install', 'electron-builder', '--dir', '--linux', '--x64', `-c.electronDist=${standInElectron()}`, `-c.electronVersion=${ELECTRON_VERSION}`, `-c.directories.output=${out}`]);
  status = result.status;
  log = `${result.stdout}\n${result.stderr}`;
  asarFiles = existsSync(asar()) ? listPackage(asar(), { isPack: false }).map((f) => f.replaceAll('\\', '/')) : [];
}, 240_000);

describe('electron-builder --dir', () => {
  it('succeeds with the repository config', () => {
    expect(status, log).toBe(0);
    expect(log).toContain(`loaded configuration  file=${join(root, 'electron-builder.yml')}`);
    expect(existsSync(join(out, 'linux-unpacked', 'agent-inbox'))).toBe(true);
  });

  it('packs the bundled app', () => {
    for (const file of ['/package.json', '/main/electron-main.cjs', '/main/preload.cjs', '/main/tray-icon.png', '/renderer/index.html']) expect(asarFiles).toContain(file);
    expect(asarFiles.some((f) => /^\/renderer\/assets\/index-[\w-]+\.js$/.test(f))).toBe(true);
    expect(new Set(asarFiles.map((f) => f.split('/')[1]))).toEqual(new Set(['main', 'package.json', 'renderer']));
  });

  it("builds the renderer for production (not React's development bundle)", () => {
    const scripts = builtScripts();
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((f) => readFileSync(f, 'utf8').includes('jsxDEV'))).toEqual([]);
  });

  // A classic script's compiled code is kept in Chromium's disk cache for a new renderer process; a
  // module script's was not (bench/README.md, "The cold open in a profile on disk"): a new window
  // compiled the app from source.
  it('loads the entry as one classic deferred script, with no module syntax and the worker by its address', () => {
    const html = readFileSync(join(root, 'dist/renderer/index.html'), 'utf8');
    expect(html).not.toMatch(/type="module"|modulepreload/);
    const entry = /<script defer src="\.\/(assets\/index-[\w-]+\.js)"><\/script>/.exec(html)?.[1];
    expect(entry, html).toBeDefined();
    const code = readFileSync(join(root, 'dist/renderer', entry!), 'utf8');
    // Parses as a classic script (a module's import, export or import.meta would throw here).
    expect(() => new Function(code)).not.toThrow();
    const worker = /new URL\(`(assets\/index-worker-[\w-]+\.js)`,document\.baseURI\)/.exec(code)?.[1];
    expect(worker).toBeDefined();
    expect(existsSync(join(root, 'dist/renderer', worker!))).toBe(true);
    expect(html).toMatch(/<link rel="stylesheet"[^>]* href="\.\/assets\/style-[\w-]+\.css">/);
  });

  // One non-ASCII character makes Chromium hold a whole script as a two-byte string: the entry's
  // ~850 KB decoded and handed over again in every new renderer process (vite.config.ts, `charset`;
  // bench/README.md, "The entry in ASCII"). Escaped, the text the app shows is the same: the
  // end-to-end tests read "…" from it (colleagues.spec.ts: "is replying…").
  it('writes its scripts (the entry and the worker) in ASCII only', () => {
    const scripts = builtScripts();
    expect(scripts.length).toBeGreaterThanOrEqual(2);
    const nonAscii = scripts.flatMap((f) => {
      const code = readFileSync(f, 'utf8');
      return [...code.matchAll(/[\u0080-\uffff]/g)].slice(0, 3).map((m) => `${basename(f)}: ${code.slice(Math.max(0, m.index - 30), m.index + 10)}`);
    });
    expect(nonAscii).toEqual([]);
  });

  it.each([
    ['node_modules', /node_modules/],
    ['better-sqlite3', /better-sqlite3|\.node$/],
    ['the service', /^\/server(\/|$)/],
    ['tests', /^\/tests?(\/|$)|\.test\./],
    ['source maps', /\.map$/],
    ['TypeScript', /\.tsx?$/],
    ['repository files', /^\/(scripts|shared|src|\.git|release|build)(\/|$)|package-lock\.json/],
  ])('packs no %s', (_name, pattern) => {
    expect(asarFiles.length).toBeGreaterThan(0);
    expect(asarFiles.filter((f) => pattern.test(f))).toEqual([]);
  });

  it('unpacks nothing beside the asar (native modules would be)', () => {
    expect(existsSync(`${asar()}.unpacked`)).toBe(false);
  });

  it('ships a manifest without dependencies whose main is in the asar', () => {
    const manifest = JSON.parse(extractFile(asar(), 'package.json').toString()) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: 'agent-inbox', productName: 'Agent Inbox', main: 'main/electron-main.cjs' });
    expect(manifest).not.toHaveProperty('dependencies');
    expect(asarFiles).toContain(`/${manifest.main as string}`);
  });

  it('flips the fuses the config asks for', () => {
    const exe = readFileSync(join(out, 'linux-unpacked', 'agent-inbox'));
    const at = exe.indexOf(SENTINEL) + SENTINEL.length;
    const wire = Object.fromEntries(FUSES.map((name, i) => [name, String.fromCharCode(exe[at + 2 + i]!)]));
    expect(wire).toEqual({
      RunAsNode: '0',
      EnableCookieEncryption: '1',
      EnableNodeOptionsEnvironmentVariable: '0',
      EnableNodeCliInspectArguments: '0',
      EnableEmbeddedAsarIntegrityValidation: '1',
      OnlyLoadAppFromAsar: '1',
      LoadBrowserProcessSpecificV8Snapshot: '1', // not configured: left as the binary had it
      GrantFileProtocolExtraPrivileges: '0',
    });
  });
});

describe('electron-builder.yml', () => {
  const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<string, Record<string, unknown> & { target?: unknown }>;

  it('names the app and every platform target', () => {
    expect(config).toMatchObject({ appId: 'com.example.agentinbox', productName: 'Agent Inbox' });
    expect(config.linux!.target).toEqual(['AppImage', 'deb']);
    expect(config.mac!.target).toEqual(['dmg']);
    expect(config.win!.target).toEqual(['nsis']);
  });

  it('points at real icon files: a 512 px PNG set, an .ico with 256 px, an .icns with 512 px', () => {
    const dir = join(root, String(config.linux!.icon));
    expect(pngSize(readFileSync(join(dir, '512x512.png')))).toEqual({ width: 512, height: 512 });
    expect(pngSize(readFileSync(join(root, 'build/icon.png')))).toEqual({ width: 512, height: 512 });
    const ico = readFileSync(join(root, String(config.win!.icon)));
    expect(ico.readUInt16LE(2)).toBe(1);
    const sizes = Array.from({ length: ico.readUInt16LE(4) }, (_, i) => ico[6 + 16 * i] || 256);
    expect(sizes).toContain(256);
    expect(icnsTypes(readFileSync(join(root, String(config.mac!.icon))))).toEqual(expect.arrayContaining(['ic07', 'ic08', 'ic09']));
  });
});
