// Builds what the app needs to run: the renderer (Vite) and, for Electron, main + preload (esbuild).
import { build as esbuild } from 'esbuild';
import { copyFileSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build as viteBuild } from 'vite';

const root = resolve(import.meta.dirname, '../..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the renderer unless dist/renderer is newer than every renderer and shared source. */
export async function ensureRendererBuilt(force = false): Promise<string> {
  const out = resolve(root, 'dist/renderer');
  const index = join(out, 'index.html');
  const stale = !existsSync(index) || Math.max(newestMtime(resolve(root, 'renderer')), newestMtime(resolve(root, 'shared'))) > statSync(index).mtimeMs;
  if (force || stale) await viteBuild({ configFile: resolve(root, 'vite.config.ts'), logLevel: 'warn' });
  return out;
}

/**
 * Bundles the Electron main process and the preload into CommonJS files Electron loads, copies
 * the tray icon beside them, and writes dist/package.json: the packaged app's manifest, with no
 * dependencies (everything is in the bundles), so electron-builder packs no node_modules.
 */
export async function buildElectron(): Promise<void> {
  const common = { bundle: true, platform: 'node' as const, format: 'cjs' as const, target: 'node20', sourcemap: true, external: ['electron'], logLevel: 'warning' as const };
  await esbuild({ ...common, entryPoints: [resolve(root, 'main/electron/main.ts')], outfile: resolve(root, 'dist/main/electron-main.cjs') });
  await esbuild({ ...common, entryPoints: [resolve(root, 'main/preload/preload.ts')], outfile: resolve(root, 'dist/main/preload.cjs') });
  copyFileSync(resolve(root, 'build/tray-icon.png'), resolve(root, 'dist/main/tray-icon.png'));
  writeFileSync(resolve(root, 'dist/package.json'), `${JSON.stringify(appManifest(), null, 2)}\n`);
}

/** The packaged app's package.json, derived from the repository's. */
export function appManifest() {
  const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { name: string; version: string; description: string };
  return {
    name: pkg.name,
    productName: 'Agent Inbox',
    version: pkg.version,
    description: pkg.description,
    author: { name: 'Agent Inbox contributors', email: 'agent-inbox@example.com' },
    main: 'main/electron-main.cjs',
    private: true,
  };
}
