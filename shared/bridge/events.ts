// Events main pushes to the renderer. Defined once here, like the calls.
import { z } from 'zod';
import { sessionStateSchema } from './calls/session';

export const bridgeEvents = {
  /** The session changed: signed in, signed out, switched, or expired after a 401. Saved sessions may have changed too. */
  'session.changed': sessionStateSchema,
  /** These sessions were signed out: delete their `inbox:<id>` databases, then call `session.cacheDeleted`. */
  'session.cacheObsolete': z.object({ sessionIds: z.array(z.string()) }),
} as const;
export type BridgeEventName = keyof typeof bridgeEvents;
export type BridgeEventPayload<E extends BridgeEventName> = z.infer<(typeof bridgeEvents)[E]>;
