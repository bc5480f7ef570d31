// Bridge calls about sessions and token storage.
import { ok } from '../../../shared/bridge/result';
import { noFeatures } from '../api/client';
import type { Sessions } from '../session/manager';
import type { TokenVault } from '../vault';
import type { Handlers } from './types';

export function sessionHandlers(sessions: Sessions, vault: TokenVault, changed: () => void): Handlers<'session'> {
  return {
    'session.get': async () => {
      await sessions.ready;
      return ok(sessions.state());
    },
    'session.signIn': (input) => sessions.signIn(input),
    'session.chooseAccount': (input) => sessions.chooseAccount(input),
    'session.list': async () => ok({ sessions: await sessions.list() }),
    'session.features': async () => {
      await sessions.ready;
      return ok(sessions.current()?.client.features() ?? noFeatures);
    },
    'session.switch': (input) => sessions.switchTo(input.sessionId),
    'session.signOut': (input) => sessions.signOut(input.sessionId),
    'session.obsoleteCaches': async () => ok({ sessionIds: await sessions.obsoleteCaches() }),
    'session.cacheDeleted': async (input) => ok({ sessionIds: await sessions.cacheDeleted(input.sessionId) }),
    'session.tokenStorage': async () => ok(await vault.storage()),
    'session.setTokenStorage': async (input) => {
      const storage = await vault.choose(input.choice);
      // Saved sessions may have turned from `ready` to `needs_token` (or back) for the next launch.
      changed();
      return ok(storage);
    },
  };
}
