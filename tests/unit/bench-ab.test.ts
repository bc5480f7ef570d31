// How two builds' loads are paired (scripts/bench/ab-pairs.ts, used by `npm run bench:ab`): each
// load with the other build's load of the same rank, way and run, whichever build was under test.
import { describe, expect, it } from 'vitest';
import type { LoadLine } from '../../scripts/bench/ab-pairs';
import { buildMedians, measureOf, pairedDifferences, summarizePairs } from '../../scripts/bench/ab-pairs';

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

  it('measures a step, from one mark to another in the same load, when asked as from..to', () => {
    const line = load('new tab', '/', 110, [['rows', 85], ['layout', 92.5]]);
    expect(measureOf(line, 'rows..layout')).toBe(7.5);
    expect(measureOf(line, 'rows..firstRows')).toBe(25);
    expect(measureOf(line, 'rows..missing')).toBeUndefined();
    expect(measureOf(line, 'missing..rows')).toBeUndefined();
    const diffs = pairedDifferences([{ underTest: 'a', lines: [line, load('new tab', '/__ab.html', 104, [['rows', 88], ['layout', 91]])] }], 'rows..layout');
    expect(diffs.get('new tab')).toEqual([-4.5]);
  });

  it("measures by the document's own timings too: the entry's run as domInteractive..domContentLoaded", () => {
    const line = { ...load('new tab', '/', 120, [['rows', 100]]), domInteractive: 54.5, domContentLoaded: 81 };
    expect(measureOf(line, 'domInteractive')).toBe(54.5);
    expect(measureOf(line, 'domInteractive..domContentLoaded')).toBe(26.5);
    expect(measureOf(line, 'domContentLoaded..rows')).toBe(19);
    expect(measureOf(load('new tab', '/', 120), 'domContentLoaded')).toBeUndefined();
  });

  it('gives each build its own median by way, whichever was under test, over every run', () => {
    const medians = buildMedians([
      { underTest: 'a', lines: [load('in memory', '/', 50), load('in memory', '/__ab.html', 47), load('in memory', '/', 60), load('in memory', '/__ab.html', 62)] },
      { underTest: 'b', lines: [load('in memory', '/__ab.html', 55), load('in memory', '/', 40), load('in memory', '/__bench/floor.html', 1)] },
    ]);
    // A: 50, 60, 55 (median 55); B: 47, 62, 40 (median 47).
    expect(medians.get('in memory')).toEqual({ a: 55, b: 47 });
    expect(Number.isNaN(buildMedians([{ underTest: 'a', lines: [load('reload', '/', 40)] }]).get('reload')!.b)).toBe(true);
  });

  it('summarizes: nearest-rank median, mean, and how often B was sooner', () => {
    expect(summarizePairs([-3, 2, -4, 5])).toEqual({ pairs: 4, median: -3, mean: 0, bSooner: 2 });
    expect(summarizePairs([]).pairs).toBe(0);
  });
});
