// What the page's entry holds, from a bundle of renderer/src/main.tsx: the modules a cold open
// evaluates before its first code runs. zod's full form ('zod', its `classic` modules) cost a cold
// open about 5 ms of that evaluation (bench/README.md, "zod's mini form"); the page uses zod's
// tree-shakable form ('zod/mini'). A module that imports 'zod' and that the entry reaches, however
// indirectly (a shared/ module included), brings the full form back: this catches it where lint
// cannot (lint sees one file's imports; this follows them all). Lazily loaded screens may import
// anything: only what the entry loads statically counts. FlexSearch (about 50 KB minified) runs in
// the search index's worker; the page loads it only should the worker fail (index-runner.ts).
import { build, type Metafile } from 'esbuild';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** The input files of the entry's output and of every chunk it imports statically. */
function entryInputs(meta: Metafile): string[] {
  const entry = Object.keys(meta.outputs).find((o) => meta.outputs[o]!.entryPoint?.endsWith('renderer/src/main.tsx'));
  if (!entry) throw new Error('no entry output');
  const seen = new Set<string>();
  const walk = (out: string) => {
    if (seen.has(out)) return;
    seen.add(out);
    for (const i of meta.outputs[out]!.imports) if (i.kind === 'import-statement' && meta.outputs[i.path]) walk(i.path);
  };
  walk(entry);
  return [...seen].flatMap((o) => Object.keys(meta.outputs[o]!.inputs));
}

describe("the page's entry", () => {
  let inputs: string[] = [];
  beforeAll(async () => {
    const result = await build({
      absWorkingDir: root,
      entryPoints: ['renderer/src/main.tsx'],
      bundle: true,
      splitting: true,
      format: 'esm',
      outdir: 'out',
      write: false,
      metafile: true,
      platform: 'browser',
      jsx: 'automatic',
      loader: { '.css': 'empty', '.svg': 'empty' },
      // Vite's `?worker&url` (the search index's worker, search/index-runner.ts) is an address, not code the entry holds.
      plugins: [{ name: 'worker-url', setup: (b) => b.onResolve({ filter: /\?worker&url$/ }, (a) => ({ path: a.path, external: true })) }],
      logLevel: 'silent',
    });
    inputs = entryInputs(result.metafile);
  }, 60_000);

  it("holds zod's mini form, not its full form", () => {
    expect(inputs.filter((i) => i.includes('node_modules/zod/v4/classic/'))).toEqual([]);
    // It sees zod at all (the bridge's frames are parsed with it), so an empty list passes nothing.
    expect(inputs.some((i) => i.includes('node_modules/zod/v4/mini/'))).toBe(true);
  });

  it('holds no FlexSearch (the search index is built and searched in its worker)', () => {
    expect(inputs.filter((i) => i.includes('node_modules/flexsearch/'))).toEqual([]);
    // The search's own modules are there (hit keys, the runner): the list is the entry's.
    expect(inputs.some((i) => i.endsWith('renderer/src/search/index-runner.ts'))).toBe(true);
  });
});

describe("the head's early script", () => {
  it('bundles nothing but itself and its handover names (it runs before the entry, so it must stay small)', async () => {
    const result = await build({
      absWorkingDir: root,
      entryPoints: ['renderer/src/platform/early-start.ts'],
      bundle: true,
      format: 'iife',
      minify: true,
      write: false,
      metafile: true,
      platform: 'browser',
      logLevel: 'silent',
    });
    expect(Object.keys(result.metafile.inputs).sort()).toEqual(['renderer/src/platform/early-handoff.ts', 'renderer/src/platform/early-start.ts']);
    expect(result.outputFiles[0]!.text.length).toBeLessThan(2_000);
  });
});

describe("the page's icon", () => {
  // Chromium fetches a page's icon just after its load event, as the inbox's first render is due,
  // and draws an SVG icon as a document of its own on the page's main thread: 3 ms ahead of the
  // first rows in a traced new tab (bench/README.md, eighteenth stop); a 32 px PNG decoded in 0.06 ms.
  it('is the 32 px app icon as a PNG, inline (no request, no SVG document before the first rows)', () => {
    const html = readFileSync(resolve(root, 'renderer/index.html'), 'utf8');
    const icons = [...html.matchAll(/<link rel="icon"[^>]*>/g)].map((m) => m[0]);
    expect(icons).toHaveLength(1);
    const href = /href="data:image\/png;base64,([^"]+)"/.exec(icons[0]!)?.[1];
    expect(icons[0]).toContain('type="image/png"');
    expect(href && Buffer.from(href, 'base64').equals(readFileSync(resolve(root, 'build/tray-icon.png')))).toBe(true);
  });
});
