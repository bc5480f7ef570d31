// The open conversation in the address (platform/route.ts), and web mode's launch secret taken out
// of it (platform/bridge.ts) without losing a route beside it.
import { afterEach, describe, expect, it } from 'vitest';
import { launchSecret, withoutSecret } from '../../renderer/src/platform/bridge';
import { conversationFromHash, hashFor } from '../../renderer/src/platform/route';

afterEach(() => {
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
});
