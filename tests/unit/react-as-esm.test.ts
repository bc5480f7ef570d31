// The renderer build's React shim (scripts/vite/react-as-esm.ts): every ES import of React is one
// module taking React's exports once, and still the one React that react-dom requires.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import { build } from 'vite';
import type { Rolldown } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { REACT_AS_ESM, reactAsEsm, reactShimSource } from '../../scripts/vite/react-as-esm';

const root = resolve(import.meta.dirname, '../..');
// Inside the project, so that `react` and `react-dom` resolve from its node_modules as the app's do.
mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
const dir = mkdtempSync(join(root, 'node_modules/.cache/react-as-esm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Modules importing React three ways, one of them also behind a dynamic import (as the app's screens
 * are: Rolldown then wraps the modules to run them when imported, each with its own copy of React's
 * exports), and react-dom's own require of it, built as the renderer is (one IIFE).
 */
async function bundle(withShim: boolean): Promise<string> {
  writeFileSync(join(dir, 'a.js'), `import { useState } from 'react';\nexport const a = useState;\n`);
  writeFileSync(join(dir, 'b.js'), `import * as R from 'react';\nimport D from 'react';\nexport const b = R.useState; export const d = D;\n`);
  writeFileSync(
    join(dir, 'entry.js'),
    `import { a } from './a.js';\nimport { b, d } from './b.js';\nimport { version as domVersion } from 'react-dom';\nglobalThis.later = () => import('./b.js');\nglobalThis.out = { same: a === b && b === d.useState && typeof a === 'function', version: d.version, domVersion };\n`,
  );
  const out = (await build({
    configFile: false,
    logLevel: 'silent',
    root: dir,
    plugins: withShim ? [reactAsEsm()] : [],
    build: { write: false, minify: false, rollupOptions: { input: join(dir, 'entry.js'), output: { format: 'iife', codeSplitting: false } } },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const chunk = (Array.isArray(out) ? out[0]! : out).output.find((o) => o.type === 'chunk');
  return (chunk as Rolldown.OutputChunk).code;
}

describe('React as one ES module in the renderer build', () => {
  it('gives React one interop copy for all its importers, and it is still the one React', async () => {
    const without = await bundle(false);
    const withShim = await bundle(true);
    const copies = (code: string) => code.match(/__toESM\(require_react\(\)/g)?.length ?? 0;
    // Without the plugin each importing module has its own copy; with it, only the shim does.
    expect(copies(without)).toBeGreaterThan(1);
    expect(copies(withShim)).toBe(1);
    const context: { out?: { same: boolean; version: string; domVersion: string } } = {};
    runInNewContext(withShim, context);
    expect(context.out).toEqual({ same: true, version: context.out!.domVersion, domVersion: context.out!.domVersion });
    expect(context.out!.version).toMatch(/^19\./);
  }, 60_000);

  it('sends only ES imports of react itself to the shim, and not the shim its own', () => {
    const plugin = reactAsEsm() as unknown as { resolveId: (s: string, i: string | undefined, o: { kind?: string }) => unknown };
    expect(plugin.resolveId('react', '/app/a.tsx', { kind: 'import-statement' })).toBe(REACT_AS_ESM);
    expect(plugin.resolveId('react', REACT_AS_ESM, { kind: 'import-statement' })).toBeNull();
    expect(plugin.resolveId('react', '/app/node_modules/react-dom/cjs/x.js', { kind: 'require-call' })).toBeNull();
    expect(plugin.resolveId('react-dom', '/app/a.tsx', { kind: 'import-statement' })).toBeNull();
    expect(plugin.resolveId('react/jsx-runtime', '/app/a.tsx', { kind: 'import-statement' })).toBeNull();
  });

  it('exports every name given that can be one, and the default', () => {
    expect(reactShimSource(['useState', 'default', '__SECRET_x', 'not-a-name'])).toBe(`import * as React from 'react';\nexport default React.default;\nexport const { useState, __SECRET_x } = React;\n`);
  });
});
