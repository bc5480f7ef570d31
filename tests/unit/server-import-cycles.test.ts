// No import cycles in server/, counting `import type` too. Lint's import-x/no-cycle skips type-only
// imports (a type import is erased, so it cannot misorder module evaluation), which is how two
// cycles in store/ went unseen (writes → contact-avatars → uploads ⇢ writes, and
// store/contact-inboxes → presenters/public ⇢ store/contact-inboxes, each closed by a type import).
// A cycle through types still ties modules together that should layer: routes → presenters →
// store, never back.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const server = join(root, 'server');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Relative imports (value and type) of every server module. */
function graph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const file of sources(server)) {
    const text = readFileSync(file, 'utf8');
    const deps = [...text.matchAll(/^(?:import|export)\s+(?:type\s+)?[^'"]*?from\s+'(\.[^']+)'/gm)].map((m) => normalize(join(dirname(file), m[1]!)) + '.ts');
    g.set(file, deps);
  }
  return g;
}

/** Tarjan's strongly connected components of more than one module. */
function cycles(g: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!g.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(relative(root, w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('server/ imports', () => {
  it('have no cycles, type-only imports included', () => {
    expect(cycles(graph())).toEqual([]);
  });

  it('the check sees a cycle closed by a type import', () => {
    const g = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/a.ts']],
    ]);
    expect(cycles(g)).toHaveLength(1);
  });
});
