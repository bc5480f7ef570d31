// Dead code in server/: a value a module exports but nothing else uses (a forgotten helper such as an
// unused presenter) escapes both ESLint's no-unused-vars and tsc's noUnusedLocals, which judge only
// unexported names. This finds such exports: every exported function, constant or class of a
// server module must be named by another file (server, tests or scripts; the renderer and main may
// not import the server). Types are left out: an exported function's parameter and result types are
// exported with it. The match is by word, so it errs toward passing (a same-named word elsewhere).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'node_modules' ? [] : sources(join(dir, e.name))) : /\.(ts|tsx|mjs)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}
const text = new Map(['server', 'tests', 'scripts'].flatMap(sources).map((f) => [f, readFileSync(join(root, f), 'utf8')]));

/** `export function f`, `export const c`, `export class C` (also async functions and `let`). */
function exportedValues(source: string): string[] {
  return [...source.matchAll(/^export (?:async )?(?:function\*? ?|const |let |class )(\w+)/gm)].map((m) => m[1]!);
}

describe('server/ exports', () => {
  it('the scan sees the exports it judges', () => {
    expect(exportedValues('export function a() {}\nexport const b = 1;\nexport async function c() {}\nexport class D {}\nexport interface E {}\nconst f = 2;')).toEqual(['a', 'b', 'c', 'D']);
  });

  it('every exported value of a server module is used by another file', () => {
    const unused: string[] = [];
    for (const [file, source] of text) {
      if (!file.startsWith('server')) continue;
      for (const name of exportedValues(source)) {
        const word = new RegExp(`\\b${name}\\b`);
        if (![...text].some(([other, t]) => other !== file && word.test(t))) unused.push(`${relative(root, join(root, file))}: ${name}`);
      }
    }
    expect(unused).toEqual([]);
  });
});
