// Triage from the cache (the service is stopped, so every change stays queued): the key that makes
// the change, to the end of the frame that shows it in the list. Resolve (`e`: the row leaves the
// Open list), label (`l`, type, Space, then Enter: the label's chip on the row), assign (`a`, type,
// then Enter: the assignee's chip), snooze (`s`, then Enter on the first preset: the row leaves).
// Each on a fresh row, pressed at an agent's pace: the page left idle AGENT_GAP_MS before the key
// (keys pressed by the benchmark at machine speed came a few milliseconds after the frames of the
// keys before them, while the compositor was still taking every tick, and a change made between
// two ticks waited for the next: that wait, not the app's work, was the figures' tail). The same
// keys at machine speed are measured too, as figures without a target. An ordinary conversation is
// open beside the list (not whatever the scenario before left open: the hostile scenario's last,
// with its many links, made a share of the keys wait a whole tick; bench/README.md, thirty-ninth
// stop), and the same keys with a conversation of links open are figures without a target.
// The reference is one frame of this page, measured idle in the same run; beside it, floors
// measured the same way in tabs of their own (key-floors.ts): a key on a bare page (60 plain rows,
// a handler that removes one), what this method reads for a key that does nothing else; the same
// key working BUSY_MS first, about what the app's own key task takes (4-6 ms in traces); and a copy
// of the app's own page as the measured rounds left it, whose key works BUSY_MS and then makes a
// resolve's DOM change by hand: what this method reads for that change on that page, with nothing
// of the app's beside it.
import type { Page } from '@playwright/test';
import type { Figure } from '../../../scripts/bench/figures';
import { rendererSchedMeter, schedWords, whileMeasured } from '../../../scripts/bench/cpu';
import { against, lateTicks, median, percentile } from '../../../scripts/bench/figures';
import { fibersFrom, fibersPrint } from '../fiber-log';
import type { KeyTimes } from '../key-floors';
import { appPageCopy, bareKeys, copyKeys } from '../key-floors';
import { arm, frameInterval, inPageOf, measured, tickOf } from '../page-probes';
import { traced } from '../trace';

/** The list's row under the cursor. */
const CURSOR_ROW = '#conversation-listbox [role="option"][aria-selected="true"]';

/**
 * The row the cursor is on, once it is another than `left` (the row the last key acted on): the key
 * that moved the cursor (`j`, or the row leaving) may not have rendered yet when Playwright's press
 * returns, and a row read before it is not the one the next picker acts on (the run then waited
 * for a change on a row nothing changed, until its timeout).
 */
async function activeRowId(page: Page, left = 0): Promise<number> {
  const moved = await page.waitForFunction(
    ({ prev, cursor }) => {
      const id = Number(document.querySelector(cursor)?.getAttribute('data-conversation-id'));
      return id > 0 && id !== prev ? id : undefined;
    },
    { prev: left, cursor: CURSOR_ROW },
    { timeout: 10_000 },
  );
  return Number(await moved.jsonValue());
}
const row = (id: number) => `#conversation-listbox [data-conversation-id="${id}"]`;

async function picker(page: Page, key: string, name: string) {
  await page.keyboard.press(key);
  await page.getByRole('dialog', { name, exact: true }).waitFor();
}

/** A key's frame made for a tick more than this after the key waited for a whole tick (half a frame). */
const LATE_TICK_MS = 8;

/** The work of the second reference key, in ms. */
const BUSY_MS = 5;

/**
 * The quiet before each measured key: a fast typist's gap between two keys (about 100-120 ms at
 * 100 words a minute); an agent's key that acts on a row comes after reading it, later still.
 * BENCH_TRIAGE_IDLE_MS=N for another (0: machine speed).
 */
const AGENT_GAP_MS = 100;

/** A conversation opened beside the list: its id, and its last message (shown once it is open). */
export interface OpenedConversation {
  id: number;
  lastMessageId: number;
}

/** Opens a conversation by its address, as a link to it would, and waits for its last message. */
async function openConversation(page: Page, c: OpenedConversation) {
  await page.evaluate((id) => {
    location.hash = `#/conversations/${id}`;
  }, c.id);
  await page.locator(`section.conversation [data-message-id="${c.lastMessageId}"]`).waitFor({ timeout: 60_000 });
}

/**
 * `machineSamples`: rounds more with no quiet before the keys (figures without a target).
 * `open.plain`: the conversation open beside the list while the keys are measured, one of ordinary
 * messages, whatever the scenarios before left open. `open.links`: one showing many web links, open
 * for as many rounds more, figures without a target: Chromium checks a page's links in sight at
 * most every 100 ms for its navigation predictor, and a check that comes due after a change makes
 * a frame of its own, with nothing in it; a key shortly after that frame waits for the next tick
 * (bench/README.md, thirty-ninth stop).
 */
export async function benchTriage(page: Page, origin: string, samples: number, machineSamples: number, avoidLabels: readonly string[], open: { plain: OpenedConversation; links: OpenedConversation }): Promise<Figure[]> {
  const idleMs = process.env.BENCH_TRIAGE_IDLE_MS !== undefined ? Number(process.env.BENCH_TRIAGE_IDLE_MS) || 0 : AGENT_GAP_MS;
  const floor = await bareKeys(page, origin, samples * 3, idleMs);
  const busyFloor = await bareKeys(page, origin, samples * 3, idleMs, BUSY_MS);
  await page.bringToFront();
  await openConversation(page, open.plain);
  const list = page.locator('#conversation-listbox');
  await list.focus();
  await page.keyboard.press('j');
  const frame = await frameInterval(page);

  // Labels and agents the rows do not have yet, from the pickers themselves. Read until there are
  // some (five seconds at most): one `--scenario triage` run (2026-12-03) found none on its single
  // read and stopped; why the pickers were empty then was not found, so the error says what was read.
  const until = async (read: () => Promise<string[]>) => {
    for (let i = 0; i < 100; i++) {
      const found = await read();
      if (found.length) return found;
      await page.waitForTimeout(50);
    }
    return [];
  };
  await picker(page, 'l', 'Labels');
  const labels = await until(async () => (await page.getByRole('dialog', { name: 'Labels' }).getByRole('option').evaluateAll((els) => els.map((e) => e.getAttribute('data-option-id') ?? ''))).filter((l) => l && !avoidLabels.includes(l)));
  await page.keyboard.press('Escape');
  await picker(page, 'a', 'Assign to');
  const agents = await until(async () => (await page.getByRole('dialog', { name: 'Assign to' }).locator('[role="option"] .command-title').allTextContents()).map((t) => t.trim()).filter((t) => t && t !== 'Unassigned'));
  await page.keyboard.press('Escape');
  if (!labels.length || !agents.length) throw new Error(`no label or agent to triage with (labels: ${labels.length}, agents: ${agents.length})`);

  type Times = Record<'resolve' | 'label' | 'assign' | 'snooze', number[]>;
  const none = (): Times => ({ resolve: [], label: [], assign: [], snooze: [] });
  // A set of rounds: each key's figure and, where `keepParts`, its page part and its frame's tick too.
  type Series = { times: Times; inPage: Times; ticks: Times; keepParts: boolean };
  const series = (keepParts: boolean): Series => ({ times: none(), inPage: none(), ticks: none(), keepParts });
  const measuredRounds = series(true);
  const machine = series(false);
  const withLinks = series(true);
  let last = 0;
  let quiet = idleMs;
  const settle = () => (quiet ? page.waitForTimeout(quiet) : Promise.resolve());
  const round = async (i: number, into: Series) => {
    const keep = async (kind: keyof Times) => {
      if (!into.keepParts) return;
      into.inPage[kind].push(await inPageOf(page));
      into.ticks[kind].push(await tickOf(page));
    };
    let id = await activeRowId(page, last);
    await arm(page, 'keydown', { selector: row(id), present: false });
    await fibersFrom(page);
    await settle();
    await page.keyboard.press('e');
    into.times.resolve.push(await measured(page));
    await keep('resolve');
    await fibersPrint(page, 'resolve');

    id = await activeRowId(page, id);
    const label = labels[i % labels.length]!;
    await picker(page, 'l', 'Labels');
    await page.keyboard.type(label);
    await page.keyboard.press('Space');
    await arm(page, 'keydown', { selector: `${row(id)} .chip.label`, present: true, text: label });
    await fibersFrom(page);
    await settle();
    await page.keyboard.press('Enter');
    into.times.label.push(await measured(page));
    await keep('label');
    await fibersPrint(page, 'label');
    await page.keyboard.press('j');

    id = await activeRowId(page, id);
    const agent = agents[i % agents.length]!;
    await picker(page, 'a', 'Assign to');
    await page.keyboard.type(agent);
    await arm(page, 'keydown', { selector: `${row(id)} .chip.assignee`, present: true, text: agent });
    await fibersFrom(page);
    await settle();
    await page.keyboard.press('Enter');
    into.times.assign.push(await measured(page));
    await keep('assign');
    await fibersPrint(page, 'assign');
    await page.keyboard.press('j');

    id = await activeRowId(page, id);
    await picker(page, 's', 'Snooze');
    await arm(page, 'keydown', { selector: row(id), present: false });
    await fibersFrom(page);
    await settle();
    await page.keyboard.press('Enter');
    into.times.snooze.push(await measured(page));
    await keep('snooze');
    await fibersPrint(page, 'snooze');
    last = id;
  };
  // How long the page's main thread waited for a core while its keys were measured (scripts/bench/cpu.ts).
  const meter = rendererSchedMeter();
  for (let i = 0; i < samples; i++) await round(i, measuredRounds);
  const sched = schedWords(meter.stop());
  // The app's page as the measured rounds left it, its resolve's change made by hand after BUSY_MS.
  const copy = await copyKeys(page, origin, await appPageCopy(page), samples, idleMs, BUSY_MS);
  await page.bringToFront();
  quiet = 0;
  for (let i = 0; i < machineSamples; i++) await round(samples + i, machine);
  quiet = idleMs;
  // One more round, not counted, with the measured rounds' conversation open, traced when
  // BENCH_TRACE names a folder. BENCH_TRACE_ROUNDS: that many (a profile of one round has few
  // samples of each key).
  const traceRounds = process.env.BENCH_TRACE ? Number(process.env.BENCH_TRACE_ROUNDS || 1) : 0;
  if (traceRounds) {
    await traced(page, 'triage', async () => {
      for (let k = 0; k < traceRounds; k++) await round(samples + machineSamples + k, series(false));
    });
  }
  // The cursor goes to the opened conversation's row: back below the rows the rounds before acted
  // on (a label given again would be taken off).
  const cursorAt = () => page.evaluate((cursor) => Number(document.querySelector(cursor)?.getAttribute('aria-posinset')), CURSOR_ROW);
  const below = await cursorAt();
  await openConversation(page, open.links);
  await list.focus();
  for (let j = 0; j < 2_000 && (await cursorAt()) <= below; j++) await page.keyboard.press('j');
  for (let i = 0; i < samples; i++) await round(samples + machineSamples + traceRounds + i, withLinks);
  // BENCH_VERBOSE: each key's figure, of it the page's part (key → change in the page), and the
  // tick its frame was made for (ms from the key, page-probes.ts `tickOf`).
  if (process.env.BENCH_VERBOSE) {
    for (const [what, { times, inPage, ticks }] of [['', measuredRounds], [' (links open)', withLinks]] as const) {
      for (const [kind, xs] of Object.entries(times)) console.log(`triage ${kind}${what}: ${xs.map((x, i) => `${x.toFixed(1)}/${inPage[kind as keyof Times][i]!.toFixed(1)}/${ticks[kind as keyof Times][i]!.toFixed(1)}`).join(' ')}`);
    }
  }
  const ref = { limit: frame, limitName: 'one frame' };
  const figures: Figure[] = [];
  // Of each, the part before the frame: the key → the change in the page (the page's own work).
  const parts = (xs: number[]) => `key → change in the page p50 ${median(xs).toFixed(1)}, p95 ${percentile(xs, 95).toFixed(1)} ms`;
  // How many keys' frames waited for a whole tick (made for a tick more than half a frame after the
  // key, page-probes.ts `tickOf`), of all and of those over one frame (bench/README.md,
  // thirty-eighth stop).
  const waitedWords = (xs: number[], tickTimes: number[]) => {
    const { late, over, overLate } = lateTicks(xs, tickTimes, LATE_TICK_MS, 16.7);
    return `; the frame made for a tick over ${LATE_TICK_MS} ms after the key in ${late} of ${xs.length}, and in ${overLate} of the ${over} over one frame`;
  };
  const pace = idleMs ? `each key after ${idleMs} ms of quiet` : 'keys at machine speed';
  // Each floor as its p50 and p95, without a target.
  const floorFigures = (name: string, what: string, keys: KeyTimes) => {
    const note = `${keys.times.length} keys ${what}, ${pace}; max ${Math.max(...keys.times).toFixed(1)} ms; ${parts(keys.inPage)}${waitedWords(keys.times, keys.ticks)}${whileMeasured(keys.sched)}`;
    for (const [at, value] of [['p50', median(keys.times)], ['p95', percentile(keys.times, 95)]] as const) figures.push({ ...against(`reference: ${name}, ${at}`, value, 'ms', ref, '', () => true, note), met: null });
  };
  floorFigures("a bare page's key → one row gone", 'on the bare page in a tab of its own, this run', floor);
  floorFigures(`a bare page's key working ${BUSY_MS} ms → one row gone`, `on the bare page, its handler working ${BUSY_MS} ms before it removes the row`, busyFloor);
  floorFigures(`the app's page copied, its key working ${BUSY_MS} ms → a resolve's change`, `on a copy of the app's page as the measured rounds left it (its DOM and styles, no script of the app's), in a tab of its own, its handler working ${BUSY_MS} ms and then changing the list as the app's resolve does`, copy);
  // A series' note: its count, pace, slowest key, page parts and waits for a tick.
  const seriesWords = (s: Series, kind: keyof Times, what = '') =>
    `${s.times[kind].length} times, ${pace}${what}; max ${Math.max(...s.times[kind]).toFixed(1)} ms; ${parts(s.inPage[kind])}${waitedWords(s.times[kind], s.ticks[kind])}`;
  for (const [kind, xs] of Object.entries(measuredRounds.times)) {
    const note = `${seriesWords(measuredRounds, kind as keyof Times)}${whileMeasured(sched)}`;
    figures.push({ ...against(`triage ${kind}: key → change shown, p50`, median(xs), 'ms', ref, '', () => true, note), met: null });
    figures.push(against(`triage ${kind}: key → change shown, p95`, percentile(xs, 95), 'ms', ref, 'p95 < 16.7 ms (one frame)', (v) => v < 16.7, note));
  }
  for (const [kind, xs] of Object.entries(machine.times)) {
    if (!xs.length) continue;
    const note = `${xs.length} times, each key as soon as the one before had shown its change (a few milliseconds after that key's frame); max ${Math.max(...xs).toFixed(1)} ms`;
    figures.push({ ...against(`triage ${kind} at machine speed: key → change shown, p95`, percentile(xs, 95), 'ms', ref, '', () => true, note), met: null });
  }
  for (const [kind, xs] of Object.entries(withLinks.times)) {
    const note = seriesWords(withLinks, kind as keyof Times, ', with a conversation showing many web links open beside the list (the measured rounds had one of ordinary messages open)');
    figures.push({ ...against(`triage ${kind}, links in the open conversation: key → change shown, p95`, percentile(xs, 95), 'ms', ref, '', () => true, note), met: null });
  }
  return figures;
}
