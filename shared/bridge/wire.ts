// Envelopes that carry the contract over a transport (Electron IPC or the web-mode WebSocket).
// Both ends parse these before looking inside, so a malformed frame is refused, not half-handled.
import { z } from 'zod';

export const IPC_CALL_CHANNEL = 'bridge:call';
export const IPC_EVENT_CHANNEL = 'bridge:event';

export const callEnvelopeSchema = z.object({
  type: z.literal('call'),
  id: z.number().int().nonnegative(),
  name: z.string().max(100),
  input: z.unknown(),
});

export const replyEnvelopeSchema = z.object({
  type: z.literal('reply'),
  id: z.number().int().nonnegative(),
  result: z.unknown(),
});

export const eventEnvelopeSchema = z.object({
  type: z.literal('event'),
  name: z.string().max(100),
  payload: z.unknown(),
});

export const serverFrameSchema = z.discriminatedUnion('type', [replyEnvelopeSchema, eventEnvelopeSchema]);
