// The reference for the cache's figures: a bare page on the app's origin (so it sees the same
// IndexedDB) that loads nothing but Dexie, opens the session's cache and reads what the app reads
// (the view's first rows from the same index, the whole view, a conversation's messages), with no
// React, no app and no paint. Served by the web host like the app's own files (written into the
// build for the run, under __bench/, and taken out after): not by Playwright's routing, which
// intercepts every request of the page once any route is set and turns the HTTP cache off, so the
// app's 700 KB entry was fetched and compiled anew on every load while the reference's small
// script was not (measured before this: 2.15× against 3.13-3.62× with routing, same build).
import type { Page } from '@playwright/test';
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { floorPage } from './react-floor';

const root = resolve(import.meta.dirname, '../..');

/** Runs in the bare page: what it reads, and when it was done (performance.now(), from navigation). */
const SOURCE = `
import Dexie from 'dexie';
const params = new URLSearchParams(location.search);
const scriptAt = performance.now();
async function open() {
  const name = (await indexedDB.databases()).find((d) => d.name && d.name.startsWith('inbox:')).name;
  const db = new Dexie(name);
  await db.open();
  return db;
}
const openView = (db) => db.table('conversations').where('[status+lastActivityAt]').between(['open', Dexie.minKey], ['open', Dexie.maxKey]);
window.__bare = { scriptAt };
if (params.get('mode') === 'keys') {
  // The key reference: the rows as plain elements, and a key whose handler makes one change
  // (the first row goes), so a key's time to its frame has nothing of the app's in it. With
  // busy=N the handler first works N ms (a loop): any key that does that much before its change.
  const list = document.createElement('div');
  (document.body ?? document.documentElement).append(list);
  for (let i = 0; i < 60; i++) {
    const row = document.createElement('div');
    row.id = 'r' + i;
    row.style.cssText = 'height: 67px; border-bottom: 1px solid #ddd; font: 14px system-ui';
    row.textContent = 'Conversation ' + i + ': the export to CSV produces an empty file';
    list.append(row);
  }
  let next = 0;
  const busy = Number(params.get('busy') || 0);
  addEventListener('keydown', (e) => {
    if (e.key !== 'e') return;
    for (const end = performance.now() + busy; performance.now() < end; );
    document.getElementById('r' + next++)?.remove();
  });
  window.__bare.done = performance.now();
} else (async () => {
  const db = await open();
  const mode = params.get('mode');
  const started = performance.now();
  const rows = mode === 'whole' ? await openView(db).toArray() : await openView(db).reverse().limit(Number(params.get('limit') || 60)).toArray();
  window.__bare.readMs = performance.now() - started;
  window.__bare.rows = rows.length;
  window.__bare.done = performance.now();
  console.debug('bench:bareDone');
  window.__bare.messages = async (id) => {
    const t = performance.now();
    const list = await db.table('messages').where('[conversation_id+id]').between([id, 0], [id, Infinity]).toArray();
    return { ms: performance.now() - t, count: list.length };
  };
})();
`;

let bundle: string | undefined;
async function bareScript(): Promise<string> {
  if (bundle) return bundle;
  const out = await build({ stdin: { contents: SOURCE, resolveDir: root, loader: 'js' }, bundle: true, format: 'iife', minify: true, write: false, logLevel: 'silent' });
  bundle = out.outputFiles[0]!.text;
  return bundle;
}

/** Writes a bench page and its script beside the built renderer, the script under assets/ named by its content's hash; returns the script's path. */
function writePage(dir: string, page: string, prefix: string, script: string, html: (src: string) => string): string {
  // As the build names the app's own scripts: the web host serves both alike (cached, never asked
  // for again: main/web/host.ts).
  const name = `${prefix}-${createHash('sha256').update(script).digest('hex').slice(0, 12)}.js`;
  const asset = resolve(root, 'dist/renderer/assets', name);
  writeFileSync(resolve(dir, page), html(`/assets/${name}`));
  writeFileSync(asset, script);
  return asset;
}

/**
 * For comparing two builds in one run (BENCH_AB_BUILD=<a built renderer's folder>, a tool, off by
 * default): its page as /__ab.html and its files beside the build's own under assets/ (named by their
 * content's hash, so none collide, and served alike: cached, never asked for again). The cold open
 * then loads it where it loads the React floor (scenarios/open.ts), alternating with this build and
 * the bare page: two builds apart by a few milliseconds are told apart only in the same loads.
 */
function abBuild(): () => void {
  const from = process.env.BENCH_AB_BUILD;
  if (!from) return () => undefined;
  const assets = resolve(root, 'dist/renderer/assets');
  const added = readdirSync(resolve(from, 'assets')).filter((name) => !existsSync(resolve(assets, name)));
  for (const name of added) copyFileSync(resolve(from, 'assets', name), resolve(assets, name));
  copyFileSync(resolve(from, 'index.html'), resolve(root, 'dist/renderer/__ab.html'));
  return () => {
    for (const name of added) rmSync(resolve(assets, name), { force: true });
    rmSync(resolve(root, 'dist/renderer/__ab.html'), { force: true });
  };
}

/** Puts /__bench/bare.html, /__bench/floor.html and their scripts beside the built renderer the web host serves; returns how to take them out. */
export async function serveBarePage(): Promise<() => void> {
  const dir = resolve(root, 'dist/renderer/__bench');
  mkdirSync(dir, { recursive: true });
  const bare = writePage(dir, 'bare.html', '__bench-bare', await bareScript(), (src) => `<!doctype html><meta charset="utf-8"><title>bare read</title><script src="${src}"></script>`);
  // Beside it, the cold open's React floor (react-floor.ts).
  const floor = await floorPage(root);
  const floorAsset = writePage(dir, 'floor.html', '__bench-floor', floor.script, floor.html);
  const other = abBuild();
  return () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(bare, { force: true });
    rmSync(floorAsset, { force: true });
    other();
  };
}

declare global {
  interface Window {
    __bare?: { scriptAt: number; readMs?: number; rows?: number; done?: number; messages?: (id: number) => Promise<{ ms: number; count: number }> };
  }
}

/** Navigates to the bare page and reads: navigation → rows read, and the read alone. */
export async function bareOpen(page: Page, origin: string, mode: 'first' | 'whole'): Promise<{ navToRead: number; read: number; rows: number }> {
  const done = page.waitForEvent('console', { predicate: (m) => m.text() === 'bench:bareDone', timeout: 60_000 });
  await page.goto(`${origin}/__bench/bare.html?mode=${mode}`, { waitUntil: 'commit' });
  await done;
  return page.evaluate(() => ({ navToRead: window.__bare!.done!, read: window.__bare!.readMs!, rows: window.__bare!.rows! }));
}

/** The bare key page (mode=keys): 60 plain rows; the key \`e\` removes the first one left, after working `busyMs`. */
export async function bareKeysPage(page: Page, origin: string, busyMs = 0): Promise<void> {
  await page.goto(`${origin}/__bench/bare.html?mode=keys&busy=${busyMs}`);
  await page.waitForFunction(() => window.__bare?.done !== undefined, undefined, { timeout: 60_000 });
}

/** In the bare page: one read of a conversation's messages, as the conversation screen asks for them. */
export function bareMessages(page: Page, id: number) {
  return page.evaluate((cid) => window.__bare!.messages!(cid), id);
}
