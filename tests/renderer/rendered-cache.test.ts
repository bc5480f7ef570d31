// Rendered messages are kept by their text for switching back to a conversation, bounded, and
// forgotten when the session's cache is deleted at sign-out: no message text outlives its session.
import { describe, expect, it } from 'vitest';
import { forgetRendered, renderedKept } from '../../renderer/src/markdown/rendered-cache';
import { renderMessageHtml } from '../../renderer/src/markdown/render';
import { deleteSessionCache } from '../../renderer/src/platform/cache-purge';

describe('rendered messages kept by their text', () => {
  it('the same text renders once and gives the same HTML; at most 300 kept; long texts not kept', () => {
    forgetRendered();
    const first = renderMessageHtml('Where is my **order**?');
    expect(renderMessageHtml('Where is my **order**?')).toBe(first);
    expect(renderedKept()).toBe(1);
    for (let i = 0; i < 400; i++) renderMessageHtml(`message ${i}`);
    expect(renderedKept()).toBe(300);
    forgetRendered();
    renderMessageHtml('x'.repeat(5_000));
    expect(renderedKept()).toBe(0);
  });

  it('sign-out (the session cache deleted) forgets them', async () => {
    renderMessageHtml('a secret the contact wrote');
    expect(renderedKept()).toBeGreaterThan(0);
    await deleteSessionCache('session-gone');
    expect(renderedKept()).toBe(0);
  });
});
