import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom does no layout. The virtualized lists need a viewport and item sizes to decide what to
// render: scrollers (data-virtual-scroller) are 600 px tall, measured items 80 px.
Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
  configurable: true,
  get(this: HTMLElement) {
    return this.hasAttribute('data-virtual-scroller') ? 600 : 0;
  },
});
Object.defineProperty(HTMLElement.prototype, 'clientWidth', {
  configurable: true,
  get(this: HTMLElement) {
    return this.hasAttribute('data-virtual-scroller') ? 400 : 0;
  },
});
Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
  configurable: true,
  get(this: HTMLElement) {
    return this.hasAttribute('data-index') ? 80 : 0;
  },
});
// Scroll height of a virtual scroller: its content is one sized spacer (the virtualizer's total).
Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
  configurable: true,
  get(this: HTMLElement) {
    if (!this.hasAttribute('data-virtual-scroller')) return 0;
    return parseFloat((this.firstElementChild as HTMLElement | null)?.style.height ?? '') || 0;
  },
});
// jsdom has no Element.scrollTo; the virtualizers scroll with it.
Element.prototype.scrollTo = function scrollTo(this: HTMLElement, opts?: ScrollToOptions | number, y?: number) {
  const top = typeof opts === 'object' ? opts.top : y;
  if (top !== undefined) this.scrollTop = Math.max(0, Math.min(top, this.scrollHeight - this.clientHeight));
  // Browsers fire scroll events asynchronously, never inside the call.
  setTimeout(() => this.dispatchEvent(new Event('scroll')), 0);
} as Element['scrollTo'];
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({ matches: false, media: query, onchange: null, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, dispatchEvent: () => false }) as MediaQueryList;
}

// The machine running the suite is shared: give waitFor room before calling a wait a failure.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  // The open conversation lives in the address (platform/route.ts): each test starts without one.
  history.replaceState(null, '', '/');
});
