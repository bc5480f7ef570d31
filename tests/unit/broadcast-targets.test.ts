// server/live/broadcast-targets.ts against socket.io-adapter's own in-memory adapter: the
// remembered sockets are always the ones its walk gives at that moment.
import { Adapter } from 'socket.io-adapter';
import type { Socket } from 'socket.io';
import { describe, expect, it } from 'vitest';
import type { RoomWalkingAdapter } from '../../server/live/broadcast-targets';
import { MAX_REMEMBERED, rememberBroadcastTargets } from '../../server/live/broadcast-targets';

function setUp() {
  const sockets = new Map<string, Socket>();
  const adapter = new Adapter({ name: '/', sockets, server: { encoder: {} } } as never);
  // `apply` is private in the adapter's types: the view this module has of it.
  const walking = adapter as unknown as RoomWalkingAdapter;
  let walks = 0;
  const walk = walking.apply.bind(adapter);
  walking.apply = (opts, cb) => {
    walks++;
    walk(opts, cb);
  };
  rememberBroadcastTargets(walking);
  const connect = (id: string, ...rooms: string[]) => {
    sockets.set(id, { id } as Socket);
    adapter.addAll(id, new Set([id, ...rooms]));
  };
  const to = (rooms: string[], except: string[] = []) => {
    const ids: string[] = [];
    walking.apply({ rooms: new Set(rooms), except: new Set(except) }, (s) => ids.push(s.id));
    return ids;
  };
  return { adapter, sockets, connect, to, walks: () => walks };
}

describe('broadcast targets remembered per set of rooms', () => {
  it('walks the rooms once for repeated broadcasts, each socket once, in the walk\'s order', () => {
    const t = setUp();
    t.connect('a', 'account:1', 'agent:1:1');
    t.connect('b', 'account:1', 'agent:1:2');
    t.connect('c', 'account:2');
    expect(t.to(['agent:1:1', 'account:1'])).toEqual(['a', 'b']);
    expect(t.to(['agent:1:1', 'account:1'])).toEqual(['a', 'b']);
    expect(t.to(['agent:1:1', 'account:1'])).toEqual(['a', 'b']);
    // Once per room: a room's members are kept for every set of rooms it is in.
    expect(t.walks()).toBe(2);
    expect(t.to(['account:2'])).toEqual(['c']);
    expect(t.walks()).toBe(3);
    expect(t.to(['account:1'])).toEqual(['a', 'b']);
    expect(t.walks()).toBe(3);
  });

  it('forgets them when a socket joins a room, or leaves one', () => {
    const t = setUp();
    t.connect('a', 'account:1');
    expect(t.to(['account:1'])).toEqual(['a']);
    t.connect('b', 'account:1');
    expect(t.to(['account:1'])).toEqual(['a', 'b']);
    t.adapter.del('a', 'account:1');
    expect(t.to(['account:1'])).toEqual(['b']);
    t.adapter.addAll('a', new Set(['account:1']));
    expect(t.to(['account:1'])).toEqual(['b', 'a']);
    // A disconnection: the socket leaves every room, then the namespace lets it go.
    t.adapter.delAll('b');
    t.sockets.delete('b');
    expect(t.to(['account:1'])).toEqual(['a']);
  });

  it('skips a socket the namespace no longer holds, as the walk does', () => {
    const t = setUp();
    t.connect('a', 'account:1');
    t.connect('b', 'account:1');
    expect(t.to(['account:1'])).toEqual(['a', 'b']);
    t.sockets.delete('a');
    expect(t.to(['account:1'])).toEqual(['b']);
  });

  it('walks as before for a broadcast that leaves sockets out, or goes to no room', () => {
    const t = setUp();
    t.connect('a', 'account:1', 'user:1');
    t.connect('b', 'account:1', 'user:2');
    expect(t.to(['account:1'], ['user:1'])).toEqual(['b']);
    expect(t.to(['account:1'], ['user:1'])).toEqual(['b']);
    expect(t.to([])).toEqual(['a', 'b']);
    expect(t.walks()).toBe(3);
    // And the lists it keeps are not changed by those.
    expect(t.to(['account:1'])).toEqual(['a', 'b']);
    expect(t.to(['account:1'])).toEqual(['a', 'b']);
    expect(t.walks()).toBe(4);
  });

  it(`keeps at most ${MAX_REMEMBERED} sets of rooms`, () => {
    const t = setUp();
    for (let i = 0; i <= MAX_REMEMBERED; i++) t.connect(`s${i}`, `ci:${i}`);
    for (let i = 0; i <= MAX_REMEMBERED; i++) expect(t.to([`ci:${i}`])).toEqual([`s${i}`]);
    const walked = t.walks();
    // The first set was forgotten when the last one came in; the last is still kept.
    expect(t.to([`ci:${MAX_REMEMBERED}`])).toEqual([`s${MAX_REMEMBERED}`]);
    expect(t.walks()).toBe(walked);
    expect(t.to(['ci:0'])).toEqual(['s0']);
    expect(t.walks()).toBe(walked + 1);
  });
});
