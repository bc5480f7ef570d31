// Envelopes that carry the contract over a transport (Electron IPC or the web-mode WebSocket).
// Both ends parse these before looking inside, so a malformed frame is refused, not half-handled.
// zod's tree-shakable form (`zod/mini`, the same library): the page parses every frame with these,
// and the full form's module costs a cold open its evaluation before the app's first code runs.
import * as z from 'zod/mini';

export const IPC_CALL_CHANNEL = 'bridge:call';
export const IPC_EVENT_CHANNEL = 'bridge:event';

export const callEnvelopeSchema = z.object({
  type: z.literal('call'),
  id: z.int().check(z.nonnegative()),
  name: z.string().check(z.maxLength(100)),
  input: z.unknown(),
});

export const replyEnvelopeSchema = z.object({
  type: z.literal('reply'),
  id: z.int().check(z.nonnegative()),
  result: z.unknown(),
});

export const eventEnvelopeSchema = z.object({
  type: z.literal('event'),
  name: z.string().check(z.maxLength(100)),
  payload: z.unknown(),
});

export const serverFrameSchema = z.discriminatedUnion('type', [replyEnvelopeSchema, eventEnvelopeSchema]);
