// The open conversation in the address (platform/route.ts), and web mode's launch secret taken out
// of it (platform/bridge.ts) without losing a route beside it.
import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { launchSecret, withoutSecret } from '../../renderer/src/platform/bridge';
import { conversationFromHash, hashFor, useConversationRoute } from '../../renderer/src/platform/route';
import { useUi } from '../../renderer/src/state/ui';

afterEach(() => {
  useUi.getState().select(undefined);
  sessionStorage.clear();
  history.replaceState(null, '', '/');
});

describe('routes', () => {
  it('a conversation has its own fragment, and only well-formed ones name a conversation', () => {
    expect(hashFor(324)).toBe('#/conversations/324');
    expect(hashFor(undefined)).toBe('');
    expect(conversationFromHash('#/conversations/324')).toBe(324);
    for (const bad of ['', '#', '#/conversations/', '#/conversations/0', '#/conversations/12x', '#k=abc', '#/conversations/1&k=abc']) expect(conversationFromHash(bad)).toBeUndefined();
  });

  it('the secret leaves the fragment; a route beside it stays', () => {
    expect(withoutSecret('#k=abc')).toBe('');
    expect(withoutSecret('#/conversations/3&k=abc')).toBe('#/conversations/3');
    expect(withoutSecret('#k=abc&/conversations/3')).toBe('#/conversations/3');
    expect(withoutSecret('#/conversations/3')).toBe('#/conversations/3');
  });

  it('launchSecret keeps the secret for reloads and takes it out of this history entry', () => {
    history.replaceState(null, '', '/#/conversations/7&k=s3cr3t_-x');
    expect(launchSecret()).toBe('s3cr3t_-x');
    expect(location.href).not.toContain('s3cr3t');
    expect(location.hash).toBe('#/conversations/7');
    // A reload (same tab): the address has no secret any more; the kept one is used.
    expect(launchSecret()).toBe('s3cr3t_-x');
  });

  it('the address follows the open conversation once the page is idle, one history entry per conversation opened', async () => {
    history.replaceState(null, '', '/');
    const hook = renderHook(() => useConversationRoute());
    const before = history.length;
    useUi.getState().select(5);
    // Not in the click's own task: the conversation renders first (pushState waits on the browser).
    expect(location.hash).toBe('');
    useUi.getState().select(6);
    await waitFor(() => expect(location.hash).toBe('#/conversations/6'));
    expect(history.length).toBe(before + 2);
    // A write still waiting when the inbox goes is made then.
    useUi.getState().select(7);
    hook.unmount();
    expect(location.hash).toBe('#/conversations/7');
  });

  it('closing is written at once (a reload before a deferred close would open it again, and opening marks it read)', async () => {
    history.replaceState(null, '', '/#/conversations/3');
    const hook = renderHook(() => useConversationRoute());
    useUi.getState().select(4);
    useUi.getState().select(undefined);
    // In the same task: what was waiting, then the close.
    expect(location.hash).toBe('');
    await new Promise((done) => setTimeout(done, 600));
    expect(location.hash).toBe('');
    hook.unmount();
  });

  it('Back to an earlier address opens its conversation; a write still waiting is dropped, not made after it', async () => {
    history.replaceState(null, '', '/#/conversations/3');
    renderHook(() => useConversationRoute());
    expect(useUi.getState().selectedConversationId).toBe(3);
    useUi.getState().select(4);
    await waitFor(() => expect(location.hash).toBe('#/conversations/4'));
    useUi.getState().select(8);
    const entries = history.length;
    // Back, before the write of 8 was made: the browser shows the earlier entry and says so.
    history.replaceState(null, '', '/#/conversations/3');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(useUi.getState().selectedConversationId).toBe(3);
    await new Promise((done) => setTimeout(done, 600));
    // 8 never became an entry (Forward would have led to it), and the address stays where Back went.
    expect(history.length).toBe(entries);
    expect(location.hash).toBe('#/conversations/3');
  });
});
