// When an element's state changes (focus, hover), Chromium restyles the descendants a rule could now
// match by the first class of the rule's last part: `.list-scroller:focus-visible .row.active` made
// every row in the page (about thirty) be restyled whenever the list took or lost the focus, which
// every triage picker does as it opens and closes, inside the key's own task (the focus move forces
// that style). Written `.active.row`, only the row it outlines is (bench/README.md, twenty-seventh
// stop). This keeps such rules from keying on a class every row has.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Classes every conversation row carries: a state rule keyed on one restyles them all. */
const EVERY_ROW = new Set(['row']);
const STATE = /:(?:focus|focus-visible|focus-within|hover|active|checked)\b/;

/** Each selector of each style rule (comments and at-rule preludes left out). */
function selectors(css: string): string[] {
  const out: string[] = [];
  const bare = css.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const m of bare.matchAll(/([^{}]+)\{[^{}]*\}/g)) {
    for (const s of m[1]!.split(',')) if (!s.trim().startsWith('@')) out.push(s.trim());
  }
  return out;
}

/** Selectors whose state part is on an ancestor and whose last part starts with a class every row has. */
function keyedOnEveryRow(css: string): string[] {
  return selectors(css).filter((selector) => {
    const parts = selector.split(/\s*[\s>+~]\s*/).filter(Boolean);
    if (parts.length < 2 || !parts.slice(0, -1).some((p) => STATE.test(p))) return false;
    const first = /^[a-z*]*\.([\w-]+)/i.exec(parts.at(-1)!)?.[1];
    return first !== undefined && EVERY_ROW.has(first);
  });
}

describe('rules that follow a state of the list', () => {
  it('are keyed on a class only the rows they style have', () => {
    const css = readFileSync(resolve(import.meta.dirname, '../../renderer/src/styles.css'), 'utf8');
    expect(selectors(css)).toContain('.list-scroller:focus-visible .active.row');
    expect(keyedOnEveryRow(css)).toEqual([]);
  });

  it('are found when keyed on every row', () => {
    // The check itself: the rule as it was, and others of its kind, are caught; rules with no state
    // on an ancestor, or keyed on another class, are not.
    const css = `.list-scroller:focus-visible .row.active { outline: 0 }
      .list:hover > .row { color: red }
      .row.active { color: blue }
      .list-scroller:focus-visible .active.row { outline: 0 }
      .list-scroller:focus-visible { outline-offset: -2px }`;
    expect(keyedOnEveryRow(css)).toEqual(['.list-scroller:focus-visible .row.active', '.list:hover > .row']);
  });
});
