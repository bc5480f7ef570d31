// Events main pushes to the renderer. Defined once here, like the calls.
import { z } from 'zod';
import { liveEventSchema } from '../api/live-events';
import { liveStatusSchema } from './calls/app';
import { uploadProgressSchema } from './calls/messages';
import { sessionStateSchema } from './calls/session';

export const bridgeEvents = {
  /** The session changed: signed in, signed out, switched, or expired after a 401. Saved sessions may have changed too. */
  'session.changed': sessionStateSchema,
  /** These sessions were signed out: delete their `inbox:<id>` databases, then call `session.cacheDeleted`. */
  'session.cacheObsolete': z.object({ sessionIds: z.array(z.string()) }),
  /** The live-update socket's state (main holds the socket; `app.liveStatus` answers the current one). */
  'live.status': liveStatusSchema,
  /** One live update from the service, validated by main (`shared/api/live-events.ts`). */
  'live.event': liveEventSchema,
  /**
   * Events may have been missed (a reconnect the service could not recover, a long time offline,
   * or the first connection of this session): revalidate what is open and close history gaps.
   */
  'live.catchUp': z.object({ reason: z.enum(['connected', 'not_recovered', 'long_offline']) }),
  /** The agent clicked an OS notification: main focused the window; open this conversation. */
  'app.notificationClicked': z.object({ conversationId: z.number().int().positive() }),
  /** The agent chose an action on an OS notification (where the OS offers them: macOS). */
  'app.notificationAction': z.object({ conversationId: z.number().int().positive(), action: z.enum(['markRead']) }),
  /** A message with files is on its way to the service: `sent` of `total` bytes of its request handed over. */
  'messages.uploadProgress': uploadProgressSchema,
} as const;
export type BridgeEventName = keyof typeof bridgeEvents;
export type BridgeEventPayload<E extends BridgeEventName> = z.infer<(typeof bridgeEvents)[E]>;
