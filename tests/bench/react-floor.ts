// The cold open's floor: the least a React page does to paint the same first rows. It opens the
// session's cache with Dexie, reads the view's first rows as the bare page does (bare-read.ts), and
// renders the rows in sight with React 19, in the app's own markup and style sheet, in one
// synchronous render, as the app's entry does. Nothing else: no bridge, no session, no other read,
// no virtualizer, no effects. The benchmark's probe (page-probes.ts) times it as it times the app:
// navigation to the frame showing the first row.
//
// Why: the cold open's target is a ratio to the bare read, which paints nothing and runs no
// framework. This page measures, in the same run, how much of the app's time any React page
// painting those rows would take on this machine (the framework's own code compiled and run, a
// render, the style sheet, a frame) and so how much is the app's own.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const SOURCE = `
import Dexie from 'dexie';
import { createElement as h } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';

const ROW = 67; // the app's comfortable density (ROW_HEIGHTS in ConversationRow.tsx)
const inSight = Math.ceil(innerHeight / ROW);
const text = (t) => h('bdi', { dir: 'auto' }, t);
function Row({ c, i, count }) {
  return h('div', { role: 'option', 'aria-selected': false, 'aria-setsize': count, 'aria-posinset': i + 1, 'data-conversation-id': c.id, className: 'row', style: { height: ROW, transform: 'translateY(' + i * ROW + 'px)' } },
    h('span', { className: 'avatar row-avatar', 'aria-hidden': true }, (c.contactName || '?').slice(0, 2).toUpperCase()),
    h('div', { className: 'row-top' }, h('span', { className: 'contact' }, text(c.contactName)), h('span', { className: 'row-id' }, '#' + c.id), c.waitingSince ? h('span', { className: 'chip waiting waiting-ok' }, Math.max(1, Math.floor((Date.now() / 1000 - c.waitingSince) / 60)) + ' min') : null, h('time', null, new Date(c.lastActivityAt * 1000).toISOString().slice(11, 16))),
    h('div', { className: 'row-middle' }, h('span', { className: 'preview' }, c.preview ? text(c.preview) : '\\u00a0')),
    h('div', { className: 'chips' }, h('span', { className: 'chip assignee' }, c.assigneeName ? text(c.assigneeName) : 'Unassigned'), ...c.labels.slice(0, 3).map((l) => h('span', { key: l, className: 'chip label' }, text(l)))));
}
function List({ rows }) {
  return h('nav', { className: 'conversation-list', 'aria-label': 'Conversations' },
    h('p', { className: 'list-status', role: 'status' }, rows.length + ' conversations'),
    h('div', { role: 'listbox', 'aria-label': 'Open', className: 'list-scroller', 'data-density': 'comfortable', tabIndex: 0 },
      h('div', { role: 'presentation', style: { height: rows.length * ROW, position: 'relative' } }, rows.slice(0, inSight).map((c, i) => h(Row, { key: c.id, c, i, count: rows.length })))));
}
const root = createRoot(document.getElementById('root'));
(async () => {
  const name = (await indexedDB.databases()).find((d) => d.name && d.name.startsWith('inbox:')).name;
  const db = new Dexie(name);
  await db.open();
  const rows = await db.table('conversations').where('[status+lastActivityAt]').between(['open', Dexie.minKey], ['open', Dexie.maxKey]).reverse().limit(60).toArray();
  // Marked for BENCH_LOADDETAIL: its rows in, its render done (the app's steps are set beside these).
  performance.mark('fl:rows');
  flushSync(() => root.render(h(List, { rows })));
  performance.mark('fl:rendered');
})();
`;

/** The floor page's script (a classic script, as the app's entry is) and its page, which links the built app's style sheet. */
export async function floorPage(root: string): Promise<{ script: string; html(scriptSrc: string): string }> {
  const out = await build({ stdin: { contents: SOURCE, resolveDir: root, loader: 'js' }, bundle: true, format: 'iife', minify: true, target: 'es2022', write: false, logLevel: 'silent', define: { 'process.env.NODE_ENV': '"production"' } });
  // The app's own style sheet, as its page links it.
  const sheet = /<link rel="stylesheet"[^>]* href="\.\/([^"]+)"/.exec(readFileSync(resolve(root, 'dist/renderer/index.html'), 'utf8'))?.[1];
  if (!sheet) throw new Error('the built renderer links no style sheet (npm run build first)');
  const html = (scriptSrc: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>React floor</title><script defer src="${scriptSrc}"></script><link rel="stylesheet" crossorigin href="/${sheet}"></head><body><div id="root"></div></body></html>`;
  return { script: out.outputFiles[0]!.text, html };
}
