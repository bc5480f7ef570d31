// The desktop behaviour's pure parts: where the window opens (clamped to the displays there are
// now), saving its state without a write per pixel, the Linux autostart entry, and the bounded
// wait for pending work before quitting.
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { autostartEntry, linuxAutostart, quoteExecArg } from '../../main/core/desktop/linux-autostart';
import { debouncedSaver, placeWindow, WINDOW_DEFAULTS, windowStateFile } from '../../main/core/desktop/window-state';
import type { Rect, WindowState } from '../../main/core/desktop/window-state';
import { createPendingWork } from '../../main/core/pending-work';
import { redactingLogger } from '../../main/core/redact';

const laptop: Rect = { x: 0, y: 0, width: 1440, height: 875 };
const rightMonitor: Rect = { x: 1440, y: -200, width: 2560, height: 1415 };
const state = (bounds: Rect, extra: Partial<WindowState> = {}): WindowState => ({ bounds, maximized: false, fullScreen: false, ...extra });

/** A timer list the test fires by hand. */
function manualTimers() {
  const armed: { ms: number; fire: () => void; cancelled: boolean }[] = [];
  const timer = (ms: number, fire: () => void) => {
    const t = { ms, fire, cancelled: false };
    armed.push(t);
    return () => void (t.cancelled = true);
  };
  return { armed, timer };
}

describe('placeWindow', () => {
  it('opens at the default size, centred on the primary display, the first time', () => {
    expect(placeWindow(undefined, [laptop, rightMonitor])).toEqual(state({ x: 80, y: 28, width: 1280, height: 820 }));
  });

  it('keeps saved bounds that are fully visible, on whichever display they are', () => {
    const onMonitor = state({ x: 2000, y: 100, width: 1600, height: 1000 }, { maximized: true });
    expect(placeWindow(onMonitor, [laptop, rightMonitor])).toEqual(onMonitor);
  });

  it('moves a window hanging off an edge fully onto its display', () => {
    expect(placeWindow(state({ x: 1000, y: 500, width: 1000, height: 600 }), [laptop]).bounds).toEqual({ x: 440, y: 275, width: 1000, height: 600 });
    expect(placeWindow(state({ x: -300, y: -50, width: 800, height: 600 }), [laptop]).bounds).toEqual({ x: 0, y: 0, width: 800, height: 600 });
  });

  it('shrinks a window larger than its display to fit', () => {
    expect(placeWindow(state({ x: 10, y: 10, width: 3000, height: 2000 }), [laptop]).bounds).toEqual({ x: 0, y: 0, width: 1440, height: 875 });
  });

  it('brings a window from a display that is gone to the primary one, keeping its size', () => {
    const wasOnMonitor = state({ x: 2600, y: 300, width: 1200, height: 800 }, { maximized: true, fullScreen: true });
    expect(placeWindow(wasOnMonitor, [laptop])).toEqual(state({ x: 120, y: 38, width: 1200, height: 800 }, { maximized: true, fullScreen: false }));
  });

  it('does not count a sliver as visible: a title bar must be reachable', () => {
    const sliver = state({ x: laptop.width - 20, y: 100, width: 900, height: 600 });
    expect(placeWindow(sliver, [laptop]).bounds).toEqual({ x: 270, y: 138, width: 900, height: 600 });
  });

  it('picks the display holding most of a window that straddles two', () => {
    const straddling = state({ x: 1300, y: 100, width: 1000, height: 700 });
    expect(placeWindow(straddling, [laptop, rightMonitor]).bounds).toEqual({ x: 1440, y: 100, width: 1000, height: 700 });
  });

  it('keeps the minimum size where the display allows it, and never exceeds a tiny display', () => {
    expect(placeWindow(state({ x: 0, y: 0, width: 100, height: 100 }), [laptop]).bounds).toMatchObject({ width: WINDOW_DEFAULTS.minWidth, height: WINDOW_DEFAULTS.minHeight });
    expect(placeWindow(undefined, [{ x: 0, y: 0, width: 640, height: 400 }]).bounds).toEqual({ x: 0, y: 0, width: 640, height: 400 });
  });

  it('works with no display information at all', () => {
    expect(placeWindow(undefined, []).bounds).toMatchObject({ width: 1280, height: 820 });
  });
});

describe('window state file', () => {
  const logger = redactingLogger(() => undefined, () => []);
  it('round-trips, is private, and falls back to nothing when the file is corrupt or hand-edited wrongly', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ws-')), 'window-state.json');
    const store = windowStateFile(file, logger);
    expect(await store.read()).toBeUndefined();
    await store.write(state({ x: 1, y: 2, width: 900, height: 700 }));
    expect(await windowStateFile(file, logger).read()).toEqual(state({ x: 1, y: 2, width: 900, height: 700 }));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    writeFileSync(file, JSON.stringify({ bounds: { x: 'a', y: 0, width: -5, height: 1 } }));
    expect(await windowStateFile(file, logger).read()).toBeUndefined();
  });

  it('saves once per burst of moves, and at once on flush', async () => {
    const saved: WindowState[] = [];
    const { armed, timer } = manualTimers();
    const saver = debouncedSaver(async (s) => void saved.push(s), 500, timer);
    for (let x = 0; x < 50; x++) saver.changed(state({ x, y: 0, width: 800, height: 600 }));
    expect(armed).toHaveLength(1);
    expect(saved).toEqual([]);
    armed[0]!.fire();
    await Promise.resolve();
    expect(saved.map((s) => s.bounds.x)).toEqual([49]);
    saver.changed(state({ x: 100, y: 0, width: 800, height: 600 }));
    await saver.flush();
    expect(saved.map((s) => s.bounds.x)).toEqual([49, 100]);
    expect(armed[1]!.cancelled).toBe(true);
    await saver.flush();
    expect(saved).toHaveLength(2);
  });
});

describe('Linux autostart', () => {
  it('quotes Exec arguments per the desktop entry spec', () => {
    expect(quoteExecArg('/usr/bin/agent-inbox')).toBe('/usr/bin/agent-inbox');
    expect(quoteExecArg('/home/me/My Apps/Agent Inbox.AppImage')).toBe('"/home/me/My Apps/Agent Inbox.AppImage"');
    expect(quoteExecArg('/x/$HOME/`id`/"q"\\')).toBe('"/x/\\$HOME/\\`id\\`/\\"q\\"\\\\"');
  });

  it('refuses line breaks that would add keys to the entry', () => {
    expect(() => autostartEntry({ name: 'Agent Inbox', exec: ['/x\nExec=/bin/evil'] })).toThrow(/line breaks/);
  });

  it('writes and removes ~/.config/autostart/<name>.desktop', async () => {
    const config = mkdtempSync(join(tmpdir(), 'xdg-'));
    const entry = linuxAutostart({ configDir: config, fileName: 'agent-inbox', name: 'Agent Inbox', exec: ['/opt/Agent Inbox/agent-inbox', '--hidden'] });
    expect(await entry.get()).toBe(false);
    await entry.set(true);
    const file = join(config, 'autostart', 'agent-inbox.desktop');
    expect(readFileSync(file, 'utf8')).toContain('Exec="/opt/Agent Inbox/agent-inbox" --hidden\n');
    expect(await entry.get()).toBe(true);
    writeFileSync(file, `${readFileSync(file, 'utf8')}Hidden=true\n`);
    expect(await entry.get()).toBe(false);
    await entry.set(false);
    expect(existsSync(file)).toBe(false);
    await entry.set(false);
  });
});

describe('pending work', () => {
  it('drains once everything tracked has settled, failures included', async () => {
    const pending = createPendingWork();
    let resolveA!: () => void;
    pending.track(new Promise<void>((r) => (resolveA = r)));
    pending.track(Promise.reject(new Error('x'))).catch(() => undefined);
    const drained = pending.drain(60_000);
    expect(pending.size()).toBeGreaterThan(0);
    resolveA();
    expect(await drained).toBe('drained');
    expect(pending.size()).toBe(0);
  });

  it('waits for work started while draining', async () => {
    const pending = createPendingWork();
    const order: string[] = [];
    pending.track(
      (async () => {
        await Promise.resolve();
        order.push('first');
        void pending.track((async () => order.push('second'))());
      })(),
    );
    expect(await pending.drain(60_000)).toBe('drained');
    expect(order).toEqual(['first', 'second']);
  });

  it('gives up at the bound when something hangs', async () => {
    const { armed, timer } = manualTimers();
    const pending = createPendingWork({ timer });
    pending.track(new Promise(() => undefined));
    const drained = pending.drain(3_000);
    expect(armed.map((t) => t.ms)).toEqual([3_000]);
    armed[0]!.fire();
    expect(await drained).toBe('timed_out');
  });
});
