// Events main pushes to the renderer. Defined once here, like the calls.
import type { z } from 'zod';
import { sessionStateSchema } from './calls/session';

export const bridgeEvents = {
  /** The session changed: signed in, signed out, switched, or expired after a 401. */
  'session.changed': sessionStateSchema,
} as const;
export type BridgeEventName = keyof typeof bridgeEvents;
export type BridgeEventPayload<E extends BridgeEventName> = z.infer<(typeof bridgeEvents)[E]>;
