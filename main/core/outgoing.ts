// The one way out of main. Every call answer (`core.call`) and every event (`core.onEvent`) passes
// through here, and both transports (Electron IPC, web mode's WebSocket) send only what the core
// answers or emits, so nothing reaches the renderer around it.
//
// Output schemas keep credentials' fields out of what main forwards, but a credential can still
// sit in a field the schema keeps: a service error echoing the token in `attributes`, a contact's
// name, a custom attribute's key, a validation message. So every string anywhere in the answer
// (object keys too) is scrubbed by value against every secret main holds (tokens, pubsub tokens,
// credentials read in service answers), not by field name.
import type { Result } from '../../shared/bridge/result';
import type { SecretRegistry } from './redact';
import { scrubSecrets } from './redact';

export function outgoingGate(secrets: Pick<SecretRegistry, 'scrub'>) {
  const scrub = (text: string) => secrets.scrub(text);
  return {
    /** A call's answer, as the transport will send it. */
    answer: (result: Result<unknown>): Result<unknown> => scrubSecrets(result, scrub),
    /** An event's payload, as the transport will send it. */
    event: <P>(payload: P): P => scrubSecrets(payload, scrub),
  };
}
