// platform/font-fallback.ts: each script's sample is laid out (its size asked) unseen, one per idle
// moment, in the style of a message's text, and taken out again; stopping stops what is left.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SCRIPT_SAMPLES, warmFontFallback } from '../../renderer/src/platform/font-fallback';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** The text of each element whose size was asked, with its class and whether it was hidden and in the page. */
function recordLayouts() {
  const laidOut: { text: string; className: string; hidden: boolean; inPage: boolean }[] = [];
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
    laidOut.push({ text: this.textContent ?? '', className: this.className, hidden: this.style.visibility === 'hidden', inPage: this.isConnected });
    return 0;
  });
  return laidOut;
}

describe('finding the fonts of the scripts a message may hold', () => {
  it('lays out every sample, one per idle moment, unseen, in the style of a message, and leaves nothing behind', async () => {
    vi.useFakeTimers();
    const laidOut = recordLayouts();
    const stop = warmFontFallback(document);
    expect(laidOut).toHaveLength(0);
    await vi.advanceTimersToNextTimerAsync();
    expect(laidOut).toHaveLength(1);
    await vi.runAllTimersAsync();
    expect(laidOut.map((l) => l.text.trim())).toEqual(SCRIPT_SAMPLES.map((s) => `${s} ${s} ${s}`));
    expect(laidOut.every((l) => l.className === 'content markdown' && l.hidden && l.inPage)).toBe(true);
    expect(document.body.children).toHaveLength(0);
    stop();
  });

  it('stops when asked: what is still waiting is not laid out', async () => {
    vi.useFakeTimers();
    const laidOut = recordLayouts();
    const stop = warmFontFallback(document);
    await vi.advanceTimersToNextTimerAsync();
    await vi.advanceTimersToNextTimerAsync();
    stop();
    await vi.runAllTimersAsync();
    expect(laidOut).toHaveLength(2);
  });
});
