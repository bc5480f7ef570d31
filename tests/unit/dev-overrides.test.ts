import { describe, expect, it } from 'vitest';
import { devOverrides } from '../../main/core/desktop/dev-overrides';

const env = { AGENT_INBOX_USER_DATA: '/u', AGENT_INBOX_RENDERER: '/r', AGENT_INBOX_DEMO_CREDENTIALS: '/c.json', HOME: '/home/x' };

describe('development overrides', () => {
  it('apply to a development run', () => {
    expect(devOverrides(env, false)).toEqual({ userData: '/u', rendererDir: '/r', demoCredentialsFile: '/c.json' });
    expect(devOverrides({}, false)).toEqual({});
  });
  it('are ignored entirely by a packaged app', () => {
    expect(devOverrides(env, true)).toEqual({});
  });
});
