// How two builds' loads are paired (scripts/bench/ab-pairs.ts, used by `npm run bench:ab`): each
// load with the other build's load of the same rank, way and run, whichever build was under test.
import { describe, expect, it } from 'vitest';
import type { LoadLine } from '../../scripts/bench/ab-pairs';
import { measureOf, pairedDifferences, summarizePairs } from '../../scripts/bench/ab-pairs';

const load = (way: string, page: string, firstRows: number, marks: [string, number][] = []): LoadLine => ({ way, page, firstRows, marks });

describe('two builds compared in the same loads', () => {
  it('pairs each load with the other build’s load of the same rank in that run and way, as B − A', () => {
    const diffs = pairedDifferences([
      // A under test: A at /, B at /__ab.html.
      { underTest: 'a', lines: [load('in memory', '/', 50), load('in memory', '/__ab.html', 47), load('in memory', '/', 60), load('in memory', '/__ab.html', 62), load('new tab', '/', 100), load('new tab', '/__ab.html', 90)] },
      // B under test: the pages swap builds.
      { underTest: 'b', lines: [load('in memory', '/__ab.html', 55), load('in memory', '/', 51), load('new tab', '/__ab.html', 110), load('new tab', '/', 120)] },
    ]);
    expect(diffs.get('in memory')).toEqual([-3, 2, -4]);
    expect(diffs.get('new tab')).toEqual([-10, 10]);
  });

  it('leaves out a load without a partner, without the measure, or of another page', () => {
    const diffs = pairedDifferences([
      { underTest: 'a', lines: [load('reload', '/', 40), load('reload', '/__ab.html', 41), load('reload', '/', 44), load('reload', '/__bench/floor.html', 30), { way: 'reload', page: '/__ab.html' }] },
    ]);
    expect(diffs.get('reload')).toEqual([1]);
  });

  it('measures by a mark when asked, the first of its name', () => {
    const line = load('in memory', '/', 50, [['rows', 30], ['rows', 35]]);
    expect(measureOf(line, 'rows')).toBe(30);
    expect(measureOf(line, 'firstRows')).toBe(50);
    expect(measureOf(line, 'missing')).toBeUndefined();
    const diffs = pairedDifferences([{ underTest: 'b', lines: [line, load('in memory', '/__ab.html', 70, [['rows', 33]])] }], 'rows');
    expect(diffs.get('in memory')).toEqual([-3]);
  });

  it('summarizes: nearest-rank median, mean, and how often B was sooner', () => {
    expect(summarizePairs([-3, 2, -4, 5])).toEqual({ pairs: 4, median: -3, mean: 0, bSooner: 2 });
    expect(summarizePairs([]).pairs).toBe(0);
  });
});
