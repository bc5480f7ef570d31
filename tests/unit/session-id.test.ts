import { describe, expect, it } from 'vitest';
import { sessionIdOf } from '../../main/core/session/profile';

describe('session ids', () => {
  it('are stable for one service, user and account', () => {
    expect(sessionIdOf('https://chat.example.com', 2, 1)).toBe(sessionIdOf('https://chat.example.com/', 2, 1));
  });
  it('differ by scheme, port, path, user and account', () => {
    const ids = [
      sessionIdOf('https://chat.example.com', 2, 1),
      sessionIdOf('http://chat.example.com', 2, 1),
      sessionIdOf('https://chat.example.com:8443', 2, 1),
      sessionIdOf('https://chat.example.com/support', 2, 1),
      sessionIdOf('https://chat.example.com/sales', 2, 1),
      sessionIdOf('https://chat.example.com', 3, 1),
      sessionIdOf('https://chat.example.com', 2, 7),
    ];
    expect(new Set(ids).size).toBe(ids.length);
  });
});
