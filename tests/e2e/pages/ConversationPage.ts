import type { Page } from '@playwright/test';

/** The open conversation's message log, and what the scroll journey reads from it. */
export class ConversationPage {
  constructor(readonly page: Page) {}

  log = () => this.page.getByRole('log', { name: 'Messages' });
  historyStart = () => this.page.getByTestId('history-start');
  message = (id: number) => this.log().locator(`article[data-message-id="${id}"]`);

  hasOlder = async () => (await this.log().getAttribute('data-has-older')) !== 'false';

  /** The ids of the messages currently rendered (the virtualized window). */
  renderedIds = () => this.log().locator('article').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-message-id'))));

  /**
   * Scrolls to the top (as a wheel would) and watches the message that was first visible there on
   * every animation frame while the older page loads and is prepended. Answers the anchor and how
   * far it moved on screen at worst: 0 means the position never jumped.
   */
  async scrollToTopAndWatch(timeoutMs = 10_000): Promise<{ anchorId: number; maxShift: number; frames: number; loaded: boolean }> {
    return this.log().evaluate(async (log, timeout) => {
      log.scrollTop = 0;
      log.dispatchEvent(new Event('scroll'));
      const top = log.getBoundingClientRect().top;
      const visible = [...log.querySelectorAll('article')].find((a) => a.getBoundingClientRect().bottom > top + 1)!;
      const anchorId = Number(visible.getAttribute('data-message-id'));
      const y0 = visible.getBoundingClientRect().top;
      let maxShift = 0;
      let frames = 0;
      const started = performance.now();
      return await new Promise<{ anchorId: number; maxShift: number; frames: number; loaded: boolean }>((resolve) => {
        const tick = () => {
          frames++;
          const el = log.querySelector(`article[data-message-id="${anchorId}"]`);
          if (el) maxShift = Math.max(maxShift, Math.abs(el.getBoundingClientRect().top - y0));
          const older = [...log.querySelectorAll('article')].some((a) => Number(a.getAttribute('data-message-id')) < anchorId);
          const settled = log.getAttribute('aria-busy') === 'false';
          // Loaded: something older than the anchor is rendered and the load finished; watch a few more frames for late corrections.
          if ((older && settled && frames > 10) || performance.now() - started > timeout) {
            resolve({ anchorId, maxShift: el ? maxShift : Infinity, frames, loaded: older });
            return;
          }
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
    }, timeoutMs);
  }
}
