// The frame for a key or click is asked for before any of the page's handlers run
// (platform/frame-on-input.ts): a handler's own work must not come between the event and the ask.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { askFrameOnInput } from '../../renderer/src/platform/frame-on-input';

describe('askFrameOnInput', () => {
  let stop: (() => void) | undefined;
  afterEach(() => {
    stop?.();
    stop = undefined;
    vi.restoreAllMocks();
    document.body.innerHTML = '';
  });

  for (const [type, make] of [
    ['keydown', () => new KeyboardEvent('keydown', { key: 'e', bubbles: true, cancelable: true })],
    ['click', () => new MouseEvent('click', { bubbles: true, cancelable: true })],
  ] as const) {
    it(`asks for a frame on ${type} before the element's own handler runs`, () => {
      const raf = vi.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 1);
      const row = document.body.appendChild(document.createElement('button'));
      // A handler on the element (as React's on its root): what had been asked by the time it ran.
      const askedWhenHandled: number[] = [];
      row.addEventListener(type, () => askedWhenHandled.push(raf.mock.calls.length));
      stop = askFrameOnInput(window);
      row.dispatchEvent(make());
      expect(askedWhenHandled).toEqual([1]);
      // Its callback does nothing with the frame it is given.
      expect(() => (raf.mock.calls[0]![0] as FrameRequestCallback)(0)).not.toThrow();
    });
  }

  it('asks nothing for other events, and nothing once stopped', () => {
    const raf = vi.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 1);
    stop = askFrameOnInput(window);
    document.body.dispatchEvent(new KeyboardEvent('keyup', { key: 'e', bubbles: true }));
    document.body.dispatchEvent(new MouseEvent('mousemove', { bubbles: true }));
    expect(raf).not.toHaveBeenCalled();
    stop();
    stop = undefined;
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'e', bubbles: true }));
    expect(raf).not.toHaveBeenCalled();
  });
});
