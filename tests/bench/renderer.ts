// The renderer's figures, in Chromium (web mode), against the real service CLI and web host as
// child processes. First with the service running (live updates, catch-up after a cut), then from
// the cache alone with the service stopped (nothing but IndexedDB feeds the screen, and no
// revalidation reconciles the synthetic rows away): cold open against a bare read, switching
// conversations, hostile messages, triage by key, local search, and the heap after all of it.
import { chromium } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumArgs, chromiumPath } from '../../playwright.config';
import type { Figure } from '../../scripts/bench/figures';
import { median } from '../../scripts/bench/figures';
import { startService } from '../../scripts/lib/service-process';
import { startWebHostProcess } from '../../scripts/lib/web-host-process';
import { HOSTILE_MESSAGES } from '../support/hostile-text';
import { bareMessages, bareOpen, serveBarePage } from './bare-read';
import { FIBER_LOG, fiberLogOn } from './fiber-log';
import { PROBES } from './page-probes';
import { benchCatchUp } from './scenarios/catch-up';
import { benchHostile } from './scenarios/hostile';
import { benchLive } from './scenarios/live';
import { benchMemory } from './scenarios/memory';
import { benchOpen, benchOpenOnDisk } from './scenarios/open';
import { benchReply } from './scenarios/reply';
import { benchScroll } from './scenarios/scroll';
import { benchSearch, foundAfter, SEARCH_QUERIES } from './scenarios/search';
import { benchSwitch } from './scenarios/switch';
import { benchTriage } from './scenarios/triage';
import { directoryCached, seedCache, showAllOpen } from './seed-cache';

const SYNTHETIC_LABELS = ['billing', 'bug', 'vip', 'refund', 'onboarding'];
/** Words only the newest and the oldest cached message hold (seed-cache.ts). */
const MARKERS = { newest: 'zebracornquartz', oldest: 'aardvarkplinthsorrel' };

/** Pushes each figure into `figures` as it is measured, so a failure keeps what came before it. */
/** Triage keys of each kind in a full run. */
const TRIAGE_ROUNDS = 60;
/** And of each at machine speed (figures without a target). */
const TRIAGE_MACHINE_ROUNDS = 20;

/** The scenarios, by name (`npm run bench -- --only renderer --scenario open,switch` runs these alone). */
export const RENDERER_SCENARIOS = ['live', 'catch-up', 'open', 'scroll', 'switch', 'hostile', 'triage', 'search', 'reply', 'memory'] as const;

/** Pushes each figure into `figures` as it is measured, so a failure keeps what came before it. */
export async function benchRenderer(o: { quick: boolean; log(line: string): void; figures: Figure[]; scenarios?: ReadonlySet<string> }): Promise<void> {
  const want = (name: (typeof RENDERER_SCENARIOS)[number]) => !o.scenarios || o.scenarios.has(name);
  const size = o.quick
    ? { conversations: 2_000, messages: 20_000, samples: 5, opens: 3, catchUp: 500, live: 5, queries: SEARCH_QUERIES.slice(0, 3), long: 2_000 }
    : { conversations: 10_000, messages: 200_000, samples: 20, opens: 15, catchUp: 2_000, live: 20, queries: SEARCH_QUERIES, long: 10_000 };
  const dir = mkdtempSync(join(tmpdir(), 'bench-renderer-'));
  const dbFile = join(dir, 'service.sqlite');
  const credentialsFile = join(dir, 'credentials.json');
  const secretFile = join(dir, 'data', 'web-launch-secret');
  const service = await startService({ db: dbFile, demo: true, credentialsOut: credentialsFile, quiet: true });
  let host = await startWebHostProcess({ secretFile, signIn: credentialsFile, quiet: true });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const figures = o.figures;
  let takeBarePageOut: (() => void) | undefined;
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(PROBES);
    if (fiberLogOn()) await page.addInitScript(FIBER_LOG);
    await page.goto(host.url);
    await page.locator('#conversation-listbox').waitFor({ timeout: 60_000 });
    const appUrl = page.url();
    const origin = new URL(appUrl).origin;
    await showAllOpen(page);
    await page.reload();
    await page.locator('#conversation-listbox [role="option"]').first().waitFor({ timeout: 60_000 });
    // The directory is refreshed once the first rows are on screen: in before the service stops.
    await directoryCached(page);

    const creds = service.credentials!;
    const api = { baseUrl: creds.baseUrl, inboxIdentifier: creds.apiInboxIdentifier };
    if (want('live')) {
      o.log(`renderer: live, ${size.live} messages`);
      figures.push(...(await benchLive(page, api, size.live)));
    }
    if (want('catch-up')) {
      o.log(`renderer: catch-up after ${size.catchUp} messages while cut off`);
      const caught = await benchCatchUp(page, { api, dbFile, agentToken: creds.agentToken, host, secretFile, credentialsFile, conversations: 50, messages: size.catchUp });
      host = caught.host;
      figures.push(...caught.figures);
    }

    // From the cache alone.
    await service.stop();
    o.log(`renderer: seeding ${size.conversations} conversations and ${size.messages} messages into the cache`);
    // Six of 500 messages: the switch goes round them, so that each it opens is older than the
    // app's memory of the last views (conversation/read-ahead.ts keeps four).
    const big = [1, 2, 3, 4, 5, 6];
    const hostile = HOSTILE_MESSAGES.map((h, i) => ({ ...h, id: big.length + 1 + i }));
    const calm = big.length + 1 + hostile.length;
    // One long-running conversation (the reply figure), after the ordinary one the hostile figures open.
    const long = calm + 2;
    const plan = {
      conversations: size.conversations,
      messages: size.messages,
      big: [...big.map((id) => ({ id, count: 500 })), { id: long, count: size.long }],
      special: hostile.map((h) => ({ id: h.id, text: h.text() })),
      markers: MARKERS,
    };
    const seeded = await seedCache(page, plan);
    takeBarePageOut = await serveBarePage();
    if (want('open')) {
      o.log(`renderer: cold open, ${size.opens} loads against the bare read`);
      figures.push(...(await benchOpen(page, appUrl, origin, size.opens)));
      o.log(`renderer: cold open in a profile on disk, ${size.opens} reloads and ${size.opens} new tabs against the bare read`);
      figures.push(...(await benchOpenOnDisk(host.url, origin, plan, size.opens)));
    }
    // On the bare page (where the cold open left it): the reference read of the switch figure's conversations.
    const reads: number[] = [];
    if (want('switch')) {
      if (!want('open')) await bareOpen(page, origin, 'first');
      for (let i = 0; i < 10; i++) reads.push((await bareMessages(page, big[i % big.length]!)).ms);
    }

    const openedAt = Date.now();
    await page.goto(appUrl);
    await page.locator('#conversation-listbox [role="option"]').first().waitFor({ timeout: 60_000 });
    // Before anything else is done in it (the agent idle): when the newest message is found.
    const newestFound = want('search') ? await foundAfter(page, MARKERS.newest, openedAt) : undefined;
    if (want('scroll')) {
      o.log('renderer: scrolling the whole list');
      figures.push(...(await benchScroll(page)));
    }
    if (want('switch')) {
      // More switches for comparing two builds (BENCH_SWITCHES=100): p95 of 20 is nearly the maximum.
      const switches = Number(process.env.BENCH_SWITCHES) || size.samples;
      o.log(`renderer: switch, ${switches} times`);
      figures.push(...(await benchSwitch(page, big.map((id) => ({ id, lastMessageId: seeded.lastMessageOf[id]! })), switches, median(reads))));
    }
    if (want('hostile')) {
      o.log('renderer: hostile messages');
      figures.push(...(await benchHostile(page, hostile.map((h) => ({ name: h.name, id: h.id, lastMessageId: seeded.lastMessageOf[h.id]! })), calm, { id: calm + 1, lastMessageId: seeded.lastMessageOf[calm + 1]! })));
    }
    if (want('triage')) {
      // 60 rounds in a full run: the p95 of 20 keys is their second slowest, so one stall of the
      // machine decided it (the figure moved 5-10 ms from run to run); of 60 it is about the third
      // slowest. BENCH_TRIAGE_ROUNDS=N for another count.
      const rounds = Number(process.env.BENCH_TRIAGE_ROUNDS) || (o.quick ? size.samples : TRIAGE_ROUNDS);
      o.log(`renderer: triage, ${rounds} of each at an agent's pace, then more at machine speed`);
      // Beside the list: an ordinary conversation, then the mixed text's (its many links).
      const links = hostile.find((h) => h.name.includes('mixed text'))!;
      const opened = (id: number) => ({ id, lastMessageId: seeded.lastMessageOf[id]! });
      figures.push(...(await benchTriage(page, origin, rounds, o.quick ? size.samples : TRIAGE_MACHINE_ROUNDS, SYNTHETIC_LABELS, { plain: opened(calm), links: opened(links.id) })));
    }
    if (want('search')) {
      o.log('renderer: local search');
      figures.push(...(await benchSearch(page, MARKERS.oldest, openedAt, newestFound!, size.queries)));
    }
    if (want('reply')) {
      o.log(`renderer: replies in a conversation of ${size.long} cached messages and in one of 500`);
      figures.push(...(await benchReply(page, { id: long, lastMessageId: seeded.lastMessageOf[long]!, messages: size.long }, { id: big[0]!, lastMessageId: seeded.lastMessageOf[big[0]!]!, messages: 500 }, size.samples)));
    }
    if (want('memory')) figures.push(...(await benchMemory(page, `${size.conversations} conversations and ${seeded.messages} messages cached, all indexed`)));
  } finally {
    takeBarePageOut?.();
    await browser.close();
    await host.stop();
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
