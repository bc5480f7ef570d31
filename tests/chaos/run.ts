// The fault-injection suite (issue "Trust"): the real UI in Chromium (web mode), the web host as
// a child process, the service CLI, and a seeded fault proxy between main and the service. A run
// performs N seeded actions through the keyboard and the command palette (replies, notes, labels,
// assignee, team, status and snooze, priority, read markers) over the agent's conversations,
// reloads the page and restarts the host (gracefully and killed) at seeded moments, then stops the
// faults, waits until every held request has been delivered and the app's outbox has drained,
// and judges: lost and duplicated messages, the service against what the agent intended, and what
// the screen shows against the service. It prints the seed and those counts.
//
//   npm run chaos -- --seed 7 --actions 500 [--conversations 20] [--fault-rate 0.4]
//                    [--max-hold-ms 120000] [--request-timeout-ms 15000] [--no-extensions]
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from '@playwright/test';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../../playwright.config';
import { startService } from '../../scripts/lib/service-process';
import type { DemoCredentialsFile } from '../../scripts/lib/service-process';
import { startWebHostProcess } from '../../scripts/lib/web-host-process';
import type { RunningWebHost } from '../../scripts/lib/web-host-process';
import type { Fault } from './fault-proxy';
import { startFaultProxy } from './fault-proxy';
import type { Action, Intended, ServiceState, Status } from './model';
import { apply, differences } from './model';
import { pick, seeded } from './prng';

export interface ChaosOptions {
  seed: number;
  actions: number;
  conversations?: number;
  faultRate?: number;
  maxHoldMs?: number;
  requestTimeoutMs?: number;
  /** false: the proxy strips the service's extensions (a service like real Chatwoot). */
  extensions?: boolean;
  /** Chance, after each action, of a page reload and of a host restart. */
  reloadRate?: number;
  restartRate?: number;
  /** How long the outbox may take to drain once the faults stop. */
  drainTimeoutMs?: number;
  /** A page to drive (a Playwright test's); else Chromium is launched here. */
  page?: Page;
  log?: (line: string) => void;
}

export interface ChaosResult {
  seed: number;
  extensions: boolean;
  actionsDone: number;
  actionsSkipped: number;
  conversations: number;
  /** Application API requests in the whole run, and those made while faults were on (the storm). */
  requests: number;
  faulted: number;
  stormRequests: number;
  /** Faulted requests among the storm's. */
  faultedShare: number;
  byFault: Record<Fault, number>;
  lateDeliveries: number;
  reloads: number;
  restarts: { graceful: number; killed: number };
  messagesSent: number;
  /** A reply or note the agent sent that is not on the service and not shown to them as not sent. */
  lost: string[];
  /** A text with more than one copy on the service. */
  duplicated: string[];
  /** Refused by the service and shown to the agent as not sent (not lost: the agent can retry). */
  shownAsFailed: number;
  serviceVsIntended: string[];
  uiVsService: string[];
  /** Outbox entries still not done at the end (queued, sending, conflict). */
  undrained: string[];
  /** Actions the screen did not show within a few seconds of being taken (taken, but not applied). */
  notShown: string[];
  durationMs: number;
  /** What was done to each conversation that ended with a difference, in order (for a look). */
  trace: Record<number, string[]>;
  /** What the app told the agent (its notices), in order. */
  notices: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The service's state of a conversation, read from its database file. */
function serviceState(dbFile: string, accountId: number, displayId: number): ServiceState & { assigneeName: string; teamName: string } {
  const db = new Database(dbFile, { readonly: true });
  try {
    const c = db.prepare('SELECT * FROM conversations WHERE account_id = ? AND display_id = ?').get(accountId, displayId) as Record<string, unknown>;
    const labels = (db.prepare('SELECT title FROM conversation_labels WHERE conversation_id = ? ORDER BY title').all(c.id) as { title: string }[]).map((l) => l.title);
    const lastIncoming = (db.prepare('SELECT MAX(created_at) AS at FROM messages WHERE conversation_id = ? AND message_type = 0').get(c.id) as { at: number | null }).at;
    const seen = c.agent_last_seen_at as number | null;
    const user = c.assignee_id ? (db.prepare('SELECT name, display_name FROM users WHERE id = ?').get(c.assignee_id) as { name: string; display_name: string | null }) : undefined;
    const team = c.team_id ? (db.prepare('SELECT name FROM teams WHERE id = ?').get(c.team_id) as { name: string }) : undefined;
    return {
      status: c.status as Status,
      priority: (c.priority as ServiceState['priority']) ?? null,
      assignee: (c.assignee_id as number | null) ?? 0,
      team: (c.team_id as number | null) ?? 0,
      labels,
      unread: lastIncoming !== null && (seen === null || lastIncoming > seen),
      assigneeName: user ? user.display_name || user.name : '',
      teamName: team?.name ?? '',
    };
  } finally {
    db.close();
  }
}

/** Copies of each text on the service, in a conversation. */
function serviceCopies(dbFile: string, accountId: number, displayId: number, text: string): number {
  const db = new Database(dbFile, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.account_id = ? AND c.display_id = ? AND m.content = ?').get(accountId, displayId, text) as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The page's cache: the outbox and the messages with our texts (what the screen renders from). */
async function pageCache(page: Page, tag: string) {
  // tsx (esbuild) names functions through a `__name` helper the page does not have.
  await page.evaluate('globalThis.__name = globalThis.__name || ((f) => f)');
  return page.evaluate(async (tag) => {
    const names = (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.startsWith('inbox:'));
    const read = (name: string) =>
      new Promise<{ outbox: { state: string; kind: string; conversationId: number; content?: string }[]; messages: { id: number; conversationId: number; content: string }[] }>((resolve, reject) => {
        const req = indexedDB.open(name);
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const db = req.result;
          const tx = db.transaction(['outbox', 'messages'], 'readonly');
          const outbox = tx.objectStore('outbox').getAll();
          const messages = tx.objectStore('messages').getAll();
          tx.oncomplete = () => {
            db.close();
            resolve({
              outbox: (outbox.result as { state: string; kind: string; conversationId: number; payload?: { content?: string } }[]).map((e) => ({ state: e.state, kind: e.kind, conversationId: e.conversationId, content: e.payload?.content })),
              messages: (messages.result as { id: number; conversation_id: number; content: string | null }[])
                .filter((m) => (m.content ?? '').startsWith(tag))
                .map((m) => ({ id: m.id, conversationId: m.conversation_id, content: m.content ?? '' })),
            });
          };
        };
      });
    const all = await Promise.all(names.map(read));
    return { outbox: all.flatMap((a) => a.outbox), messages: all.flatMap((a) => a.messages) };
  }, tag);
}

/** Polls until `check` holds (true) or the time is up (false). */
async function until(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<boolean> {
  const by = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > by) return false;
    await sleep(50);
  }
}
const focused = (page: Page, selector: string) => until(() => page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector));

/** Runs a palette command by its exact title; false if the palette did not offer it. */
async function palette(page: Page, query: string, title: string): Promise<boolean> {
  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Command palette' });
  await dialog.waitFor();
  // Keys typed before the filter has focus would reach the inbox as shortcuts.
  if (!(await focused(page, '.palette input[role="combobox"]'))) throw new Error('the palette did not take focus');
  await page.keyboard.type(query);
  const titles = await dialog.locator('.command-title').allTextContents();
  const at = titles.findIndex((t) => t === title);
  if (at < 0) {
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    return false;
  }
  for (let i = 0; i < at; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'detached' });
  return true;
}

async function openConversation(page: Page, id: number): Promise<boolean> {
  if (!(await palette(page, `#${id}`, `Open conversation #${id}`))) return false;
  await page.locator('section.conversation .pane-header .muted', { hasText: `#${id}` }).waitFor({ timeout: 10_000 });
  return true;
}

async function inboxReady(page: Page) {
  await page.getByRole('listbox', { name: /conversations,/ }).waitFor({ timeout: 30_000 });
}

/** What the open conversation's header shows (read in one go: it may re-render between reads). */
async function shown(page: Page) {
  return page.evaluate(() => {
    const header = document.querySelector('section.conversation .conversation-header');
    const text = (testId: string) => (header?.querySelector(`[data-testid="${testId}"]`)?.textContent ?? '').trim();
    return {
      status: text('conversation-status'),
      priority: text('conversation-priority'),
      assignee: text('conversation-assignee'),
      team: text('conversation-team').replace(/^Team\s*/, ''),
      labels: [...(header?.querySelectorAll('[data-testid="conversation-labels"] li') ?? [])].map((l) => (l.textContent ?? '').trim()).sort(),
    };
  });
}

type Shown = Awaited<ReturnType<typeof shown>>;

/** What the header must show right after `action`, or undefined where it shows nothing checkable. */
function expectedOnScreen(action: Action, agents: { id: number; name: string }[], teams: { id: number; name: string }[]): ((s: Shown) => boolean) | undefined {
  switch (action.kind) {
    case 'status':
      return (s) => s.status === action.status;
    case 'priority':
      return (s) => s.priority === (action.priority ?? '');
    case 'assign': {
      const name = action.userId ? agents.find((a) => a.id === action.userId)?.name : 'Unassigned';
      return (s) => s.assignee === name;
    }
    case 'team': {
      const name = action.teamId ? teams.find((t) => t.id === action.teamId)?.name : '';
      return (s) => s.team === name;
    }
    case 'label':
      return (s) => s.labels.includes(action.label) === action.add;
    default:
      return undefined;
  }
}

export async function runChaos(opts: ChaosOptions): Promise<ChaosResult> {
  const started = Date.now();
  const log = opts.log ?? ((line: string) => console.log(line));
  const extensions = opts.extensions ?? true;
  const maxHoldMs = opts.maxHoldMs ?? 120_000;
  const random = seeded(opts.seed * 7_919 + 1);
  const dir = mkdtempSync(join(tmpdir(), `chaos-${opts.seed}-`));
  const dbFile = join(dir, 'service.sqlite');
  const credsFile = join(dir, 'credentials.json');
  const service = await startService({ db: dbFile, demo: true, credentialsOut: credsFile, quiet: true });
  const creds = JSON.parse(readFileSync(credsFile, 'utf8')) as DemoCredentialsFile;
  const proxy = await startFaultProxy({ target: service.baseUrl, seed: opts.seed, faultRate: opts.faultRate ?? 0.4, maxHoldMs, stripExtensions: !extensions });
  proxy.setInjecting(false);
  // Main signs in to the proxy, as if it were the service.
  const hostCreds = join(dir, 'host-credentials.json');
  writeFileSync(hostCreds, JSON.stringify({ ...creds, baseUrl: proxy.url }), { mode: 0o600 });
  const secretFile = join(dir, 'data', 'web-launch-secret');
  const hostOpts = { secretFile, signIn: hostCreds, requestTimeoutMs: opts.requestTimeoutMs ?? 15_000, quiet: true };
  let host: RunningWebHost = await startWebHostProcess(hostOpts);
  let browser: Browser | undefined;
  const page = opts.page ?? (await (browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })).newPage({ viewport: { width: 1280, height: 800 } }));
  const tag = `chaos s${opts.seed}`;
  const result: ChaosResult = {
    seed: opts.seed,
    extensions,
    actionsDone: 0,
    actionsSkipped: 0,
    conversations: 0,
    requests: 0,
    faulted: 0,
    stormRequests: 0,
    faultedShare: 0,
    byFault: {} as Record<Fault, number>,
    lateDeliveries: 0,
    reloads: 0,
    restarts: { graceful: 0, killed: 0 },
    messagesSent: 0,
    lost: [],
    duplicated: [],
    shownAsFailed: 0,
    serviceVsIntended: [],
    uiVsService: [],
    undrained: [],
    notShown: [],
    durationMs: 0,
    trace: {},
    notices: [],
  };
  const noticeSeen = new Set<string>();
  const consoleLines: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') consoleLines.push(`${m.type()}: ${m.text().slice(0, 300)}`);
  });
  const readNotice = async () => {
    const text = await page.evaluate(() => document.querySelector('p.notice')?.textContent ?? '').catch(() => '');
    if (text && !noticeSeen.has(text)) {
      noticeSeen.add(text);
      result.notices.push(text);
    }
  };
  const actionsOf = new Map<number, string[]>();
  // tsx (esbuild) names functions through a `__name` helper the page does not have (every load).
  await page.addInitScript('globalThis.__name = globalThis.__name || ((f) => f)');
  try {
    await page.goto(host.url);
    await inboxReady(page);

    // The agent's conversations in the website inbox (its agents: Sam, Jordan, Priya) that a contact wrote in.
    const meta = new Database(dbFile, { readonly: true });
    const me = (meta.prepare("SELECT id FROM users WHERE email = 'sam@acme.example'").get() as { id: number }).id;
    const agents = meta.prepare("SELECT id, name FROM users WHERE email IN ('sam@acme.example', 'jordan@acme.example', 'priya@acme.example') ORDER BY id").all() as { id: number; name: string }[];
    const teams = meta.prepare('SELECT id, name FROM teams WHERE account_id = ? ORDER BY id').all(creds.accountId) as { id: number; name: string }[];
    const labels = (meta.prepare('SELECT title FROM labels WHERE account_id = ? ORDER BY title').all(creds.accountId) as { title: string }[]).map((l) => l.title);
    const candidates = (
      meta
        .prepare(
          `SELECT c.display_id AS id FROM conversations c JOIN inboxes i ON i.id = c.inbox_id WHERE c.account_id = ? AND i.name = 'Website chat'
           AND EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.message_type = 0) ORDER BY c.id`,
        )
        .all(creds.accountId) as { id: number }[]
    ).map((r) => r.id);
    meta.close();
    const shuffled = [...candidates].sort(() => random() - 0.5);
    const chosen = shuffled.slice(0, opts.conversations ?? 20);
    result.conversations = chosen.length;
    const intended = new Map<number, Intended>();
    for (const id of chosen) {
      const s = serviceState(dbFile, creds.accountId, id);
      intended.set(id, { status: s.status, priority: s.priority, assignee: s.assignee, team: s.team, labels: new Set(s.labels), unread: undefined });
    }
    const sent: { conversationId: number; text: string }[] = [];

    proxy.setInjecting(true);
    let open: number | undefined;
    // `actions` counts actions taken; one the palette did not offer (already so) is drawn again.
    for (let n = 0; result.actionsDone < opts.actions && n < opts.actions * 3; n++) {
      const id = chosen[Math.floor(random() * chosen.length)]!;
      if (open !== id) {
        if (!(await openConversation(page, id))) {
          result.actionsSkipped++;
          continue;
        }
        open = id;
        intended.set(id, apply(intended.get(id)!, { kind: 'open' }, me));
      }
      const state = intended.get(id)!;
      const kind = pick(random, [
        ['reply', 3],
        ['note', 2],
        ['label', 3],
        ['assign', 2],
        ['team', 1],
        ['status', 3],
        ['priority', 2],
        ['unread', 1],
      ] as const);
      let action: Action | undefined;
      switch (kind) {
        case 'reply':
        case 'note': {
          const text = `${tag} a${n} ${kind} ${Math.floor(random() * 1e9).toString(36)}`;
          await page.keyboard.press(kind === 'reply' ? 'r' : 'n');
          const label = kind === 'reply' ? 'Reply to the contact' : 'Private note for your team';
          // Typed only into the composer (elsewhere its letters would be shortcuts).
          if (!(await focused(page, `textarea[aria-label="${label}"]`))) break;
          await page.keyboard.type(text);
          await page.keyboard.press('Control+Enter');
          // Queued: the box empties in the commit that queues the message.
          const queued = await until(() => page.evaluate(() => (document.activeElement as HTMLTextAreaElement | null)?.value === ''));
          await page.keyboard.press('Escape');
          if (!queued) throw new Error(`the composer did not take "${text}"`);
          sent.push({ conversationId: id, text });
          action = { kind, text };
          break;
        }
        case 'label': {
          const has = [...state.labels];
          const remove = has.length > 0 && random() < 0.4;
          const label = remove ? has[Math.floor(random() * has.length)]! : labels[Math.floor(random() * labels.length)]!;
          const add = !remove && !state.labels.has(label);
          if (!remove && !add) break;
          action = { kind: 'label', label, add, title: `${add ? 'Add' : 'Remove'} label ${label}` };
          break;
        }
        case 'assign': {
          const who = random() < 0.2 ? undefined : agents[Math.floor(random() * agents.length)]!;
          action = { kind: 'assign', userId: who?.id ?? 0, title: !who ? 'Unassign' : who.id === me ? 'Assign to me' : `Assign to ${who.name}` };
          break;
        }
        case 'team': {
          const team = random() < 0.25 ? undefined : teams[Math.floor(random() * teams.length)]!;
          action = { kind: 'team', teamId: team?.id ?? 0, title: team ? `Move to team ${team.name}` : 'Remove the team' };
          break;
        }
        case 'status': {
          const [status, title] = pick(random, [
            [['resolved', 'Resolve'], 3],
            [['open', 'Reopen'], 2],
            [['pending', 'Mark as pending'], 1],
            [['snoozed', 'Snooze until tomorrow'], 1],
            [['snoozed', 'Snooze until next reply'], 1],
          ] as const);
          action = { kind: 'status', status, title };
          break;
        }
        case 'priority': {
          const p = pick(random, [
            ['urgent', 1],
            ['high', 1],
            ['medium', 1],
            ['low', 1],
            [null, 1],
          ] as const);
          action = { kind: 'priority', priority: p, title: p ? `Set priority: ${p[0]!.toUpperCase()}${p.slice(1)}` : 'Remove the priority' };
          break;
        }
        case 'unread':
          await page.keyboard.press('u');
          action = { kind: 'unread' };
          open = undefined;
          break;
      }
      if (action && 'title' in action) {
        const words = action.title;
        if (!(await palette(page, words, words))) action = undefined;
      }
      if (!action) {
        result.actionsSkipped++;
        continue;
      }
      intended.set(id, apply(state, action, me));
      result.actionsDone++;
      // The screen shows a change the moment it is taken (from the cache); one it never shows was not taken.
      const expected = expectedOnScreen(action, agents, teams);
      // A conversation whose record is still on its way (a held read takes the client's timeout to
      // fail, then it is asked again) shows no header yet: give it that long before judging.
      const loadingMs = 2 * (opts.requestTimeoutMs ?? 15_000) + 10_000;
      const onScreen = async (ms: number) => until(async () => expected!(await shown(page)), ms);
      if (expected && !(await onScreen(5_000)) && !((await shown(page)).status === '' && (await onScreen(loadingMs)))) {
        result.notShown.push(`#${id} a${n} ${'title' in action ? action.title : action.kind}: the screen shows ${JSON.stringify(await shown(page))}`);
      }
      // What the app queued for it, right after (a change it did not queue here went to another conversation).
      const queuedNow = (await pageCache(page, tag)).outbox.filter((e) => e.conversationId === id).map((e) => `${e.kind}:${e.state}`);
      actionsOf.set(id, [...(actionsOf.get(id) ?? []), `a${n} ${'title' in action ? action.title : action.kind} [${queuedNow.join(' ')}]`]);

      // Mid-flush: what was just queued may be on its way.
      const r = random();
      if (r < (opts.reloadRate ?? 0.03)) {
        result.reloads++;
        await page.reload();
        await inboxReady(page);
        open = undefined;
      } else if (r < (opts.reloadRate ?? 0.03) + (opts.restartRate ?? 0.015)) {
        const kill = random() < 0.5;
        if (kill) result.restarts.killed++;
        else result.restarts.graceful++;
        await host.stop(kill ? 'SIGKILL' : 'SIGTERM');
        await sleep(Math.floor(random() * 2_000));
        // The host's demo sign-in is scaffolding (an installed app restores its session from its
        // data folder, it does not sign in again), so it is not faulted: a held sign-in would end
        // the host before the page could try it. Everything the page and main do after is.
        proxy.setInjecting(false);
        host = await startWebHostProcess({ ...hostOpts, port: host.port });
        proxy.setInjecting(true);
        await page.locator('.live-indicator[data-state="connected"]').waitFor({ timeout: 60_000 }).catch(() => undefined);
      }
      await readNotice();
      if (result.actionsDone % 50 === 0) log(`seed ${opts.seed}: ${result.actionsDone}/${opts.actions} actions, ${proxy.stats().faulted}/${proxy.stats().requests} requests faulted`);
    }

    // The storm ends: nothing more is faulted; every held request is delivered; the outbox drains.
    proxy.setInjecting(false);
    log(`seed ${opts.seed}: actions done; waiting for held requests (${proxy.pending()}) and the outbox`);
    await proxy.idle(maxHoldMs + 60_000);
    const drainBy = Date.now() + (opts.drainTimeoutMs ?? 10 * 60_000);
    let cache = await pageCache(page, tag);
    while (Date.now() < drainBy && cache.outbox.some((e) => e.state === 'queued' || e.state === 'sending')) {
      await sleep(1_000);
      await readNotice();
      cache = await pageCache(page, tag);
    }
    await proxy.idle(maxHoldMs + 60_000);
    cache = await pageCache(page, tag);
    result.undrained = cache.outbox.filter((e) => e.state !== 'confirmed' && e.state !== 'failed').map((e) => `#${e.conversationId} ${e.kind} ${e.state}`);

    // Messages: each sent text once on the service, or shown to the agent as not sent.
    result.messagesSent = sent.length;
    const failedTexts = new Set(cache.outbox.filter((e) => e.state === 'failed' && e.content).map((e) => e.content!));
    result.shownAsFailed = failedTexts.size;
    for (const m of sent) {
      const copies = serviceCopies(dbFile, creds.accountId, m.conversationId, m.text);
      if (copies === 0 && !failedTexts.has(m.text)) {
        const entry = cache.outbox.find((e) => e.content === m.text);
        result.lost.push(`#${m.conversationId} "${m.text}" (outbox: ${entry ? entry.state : 'none'}; in the app: ${cache.messages.filter((c) => c.content === m.text).length})`);
      }
      if (copies > 1) result.duplicated.push(`#${m.conversationId} "${m.text}" ×${copies}`);
      const cached = cache.messages.filter((c) => c.content === m.text && c.id < 2 ** 52).length;
      if (cached !== copies && !failedTexts.has(m.text)) result.uiVsService.push(`#${m.conversationId} "${m.text}": ${cached} in the app, ${copies} on the service`);
    }
    // The service against what the agent intended (read markers before the screen is read: opening marks read).
    for (const id of chosen) {
      for (const d of differences(intended.get(id)!, serviceState(dbFile, creds.accountId, id))) result.serviceVsIntended.push(`#${id} ${d}`);
    }
    for (const line of [...result.serviceVsIntended, ...result.uiVsService, ...result.lost, ...result.duplicated, ...result.undrained, ...result.notShown]) {
      const id = Number(/^#(\d+)/.exec(line)?.[1]);
      if (id) result.trace[id] = [...(actionsOf.get(id) ?? []), ...cache.outbox.filter((e) => e.conversationId === id).map((e) => `outbox ${e.kind} ${e.state}`)];
    }
    // What the screen shows against the service.
    for (const id of chosen) {
      if (!(await openConversation(page, id))) {
        result.uiVsService.push(`#${id}: could not be opened`);
        continue;
      }
      const s = serviceState(dbFile, creds.accountId, id);
      const want = { status: s.status, priority: s.priority ?? '', assignee: s.assigneeName || 'Unassigned', team: s.teamName, labels: s.labels };
      let got = await shown(page);
      // The screen follows the cache a frame later: look again briefly before calling it different.
      for (let i = 0; i < 20 && JSON.stringify(got) !== JSON.stringify(want); i++) {
        await sleep(100);
        got = await shown(page);
      }
      for (const k of Object.keys(want) as (keyof typeof want)[]) {
        if (JSON.stringify(got[k]) !== JSON.stringify(want[k])) result.uiVsService.push(`#${id} ${k}: screen ${JSON.stringify(got[k])}, service ${JSON.stringify(want[k])}`);
      }
    }
  } finally {
    const stats = proxy.stats();
    result.requests = stats.requests;
    result.faulted = stats.faulted;
    result.stormRequests = stats.storm.requests;
    result.faultedShare = stats.storm.requests ? stats.storm.faulted / stats.storm.requests : 0;
    result.byFault = stats.byFault;
    result.lateDeliveries = stats.late;
    result.durationMs = Date.now() - started;
    await browser?.close();
    await host.stop();
    await proxy.close();
    await service.stop();
    if (consoleLines.length) writeFileSync(join(dir, 'console.log'), consoleLines.join('\n'));
    // Kept for a look after a failing run: the service's database.
    try {
      mkdirSync(resolve('test-results/chaos'), { recursive: true });
      copyFileSync(dbFile, resolve(`test-results/chaos/${opts.seed}-service.sqlite`));
    } catch {
      // The service may not have written it (an early failure).
    }
  }
  return result;
}

export function summary(r: ChaosResult): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const faults = Object.entries(r.byFault)
    .filter(([, n]) => n)
    .map(([f, n]) => `${f} ${n}`)
    .join(', ');
  return [
    `chaos seed ${r.seed} (${r.extensions ? 'with the service\'s extensions' : 'no extensions, as real Chatwoot'}): ${r.actionsDone} actions (${r.actionsSkipped} skipped) over ${r.conversations} conversations in ${(r.durationMs / 1000).toFixed(0)} s`,
    `  requests ${r.requests} (${r.stormRequests} during the faults, ${pct(r.faultedShare)} of them faulted: ${faults}); late deliveries ${r.lateDeliveries}; reloads ${r.reloads}; host restarts ${r.restarts.graceful} graceful, ${r.restarts.killed} killed`,
    `  messages sent ${r.messagesSent}; lost ${r.lost.length}; duplicated ${r.duplicated.length}; shown as not sent ${r.shownAsFailed}`,
    `  service ≠ intended ${r.serviceVsIntended.length}; screen ≠ service ${r.uiVsService.length}; outbox not drained ${r.undrained.length}; actions the screen did not show ${r.notShown.length}`,
    ...[...r.lost, ...r.duplicated, ...r.serviceVsIntended, ...r.uiVsService, ...r.undrained, ...r.notShown].slice(0, 20).map((l) => `    ${l}`),
    ...Object.entries(r.trace).map(([id, lines]) => `    #${id}: ${lines.join(' · ')}`),
    ...(r.notices.length ? [`  the app said: ${r.notices.slice(0, 15).join(' | ')}`] : []),
  ].join('\n');
}

export const passed = (r: ChaosResult) => !r.lost.length && !r.duplicated.length && !r.serviceVsIntended.length && !r.uiVsService.length && !r.undrained.length && !r.notShown.length;

const isEntry = process.argv[1] && resolve(process.argv[1]).endsWith('tests/chaos/run.ts');
if (isEntry) {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string', default: '1' },
      actions: { type: 'string', default: '500' },
      conversations: { type: 'string', default: '20' },
      'fault-rate': { type: 'string', default: '0.4' },
      'max-hold-ms': { type: 'string', default: '120000' },
      'request-timeout-ms': { type: 'string', default: '15000' },
      'no-extensions': { type: 'boolean', default: false },
    },
  });
  const result = await runChaos({
    seed: Number(values.seed),
    actions: Number(values.actions),
    conversations: Number(values.conversations),
    faultRate: Number(values['fault-rate']),
    maxHoldMs: Number(values['max-hold-ms']),
    requestTimeoutMs: Number(values['request-timeout-ms']),
    extensions: !values['no-extensions'],
  });
  console.log(summary(result));
  console.log(`(console errors, if any: in the run's temporary folder)`);
  mkdirSync(resolve('test-results/chaos'), { recursive: true });
  writeFileSync(resolve(`test-results/chaos/${result.seed}${result.extensions ? '' : '-no-extensions'}.json`), JSON.stringify(result, null, 2));
  process.exit(passed(result) ? 0 : 1);
}
