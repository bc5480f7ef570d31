// The bridge contract: every renderer→main call, defined once, with zod schemas for both sides.
// Both transports (Electron IPC in main/electron + preload, and the web-mode WebSocket in main/web)
// carry exactly these names; main validates every input before it runs anything.
//
// Adding a call: see shared/README.md ("Adding a bridge call").
import type { z } from 'zod';
import { appCalls } from './calls/app';
import { contactCalls } from './calls/contacts';
import { contactWriteCalls } from './calls/contact-writes';
import { conversationCalls } from './calls/conversations';
import { directoryCalls } from './calls/directory';
import { fileCalls } from './calls/files';
import { messageCalls } from './calls/messages';
import { searchCalls } from './calls/search';
import { sessionCalls } from './calls/session';
import { triageCalls } from './calls/triage';
import type { BridgeEventName, BridgeEventPayload } from './events';
import type { Result } from './result';

export const bridgeCalls = {
  ...sessionCalls,
  ...appCalls,
  ...conversationCalls,
  ...directoryCalls,
  ...contactCalls,
  ...contactWriteCalls,
  ...searchCalls,
  ...triageCalls,
  ...messageCalls,
  ...fileCalls,
} as const;

export type BridgeCallName = keyof typeof bridgeCalls;
export type BridgeInput<C extends BridgeCallName> = z.input<(typeof bridgeCalls)[C]['input']>;
export type BridgeParsedInput<C extends BridgeCallName> = z.output<(typeof bridgeCalls)[C]['input']>;
export type BridgeOutput<C extends BridgeCallName> = z.output<(typeof bridgeCalls)[C]['output']>;

export const isBridgeCallName = (name: unknown): name is BridgeCallName =>
  typeof name === 'string' && Object.prototype.hasOwnProperty.call(bridgeCalls, name);

/**
 * The link between the page and main: `connected`; `disconnected` (reconnecting: web mode's local
 * host is restarting, or was killed); `refused` (the host no longer accepts this page's launch
 * secret: it was started with a new one).
 */
export type BridgeConnection = 'connected' | 'disconnected' | 'refused';

/** What the renderer codes against; Electron and web mode are two implementations of it. */
export interface Bridge {
  call<C extends BridgeCallName>(name: C, input: BridgeInput<C>): Promise<Result<BridgeOutput<C>>>;
  on<E extends BridgeEventName>(event: E, listener: (payload: BridgeEventPayload<E>) => void): () => void;
  /** Where the link can drop (web mode): its changes. Electron's IPC never drops, so it has none. */
  onConnection?(listener: (state: BridgeConnection) => void): () => void;
}
