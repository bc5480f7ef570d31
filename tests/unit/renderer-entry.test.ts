// What the page's entry holds, from a bundle of renderer/src/main.tsx: the modules a cold open
// evaluates before its first code runs. zod's full form ('zod', its `classic` modules) cost a cold
// open about 5 ms of that evaluation (bench/README.md, "zod's mini form"); the page uses zod's
// tree-shakable form ('zod/mini'). A module that imports 'zod' and that the entry reaches, however
// indirectly (a shared/ module included), brings the full form back: this catches it where lint
// cannot (lint sees one file's imports; this follows them all). Lazily loaded screens may import
// anything: only what the entry loads statically counts.
import { build, type Metafile } from 'esbuild';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

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
  it("holds zod's mini form, not its full form", async () => {
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
      logLevel: 'silent',
    });
    const inputs = entryInputs(result.metafile);
    expect(inputs.filter((i) => i.includes('node_modules/zod/v4/classic/'))).toEqual([]);
    // It sees zod at all (the bridge's frames are parsed with it), so an empty list passes nothing.
    expect(inputs.some((i) => i.includes('node_modules/zod/v4/mini/'))).toBe(true);
  }, 60_000);
});
