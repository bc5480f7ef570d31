// Bridge calls for code that wants exceptions (TanStack Query, sync loops): a failed call becomes
// a thrown BridgeFailure that still carries the error kind.
import type { Bridge, BridgeCallName, BridgeInput, BridgeOutput } from '../../../shared/bridge/contract';
import type { BridgeError, BridgeErrorKind } from '../../../shared/bridge/result';

export class BridgeFailure extends Error {
  constructor(readonly error: BridgeError) {
    super(error.message);
  }
}

export async function callOrThrow<C extends BridgeCallName>(bridge: Bridge, name: C, input: BridgeInput<C>): Promise<BridgeOutput<C>> {
  const result = await bridge.call(name, input);
  if (!result.ok) throw new BridgeFailure(result.error);
  return result.value;
}

const unreachable: ReadonlySet<BridgeErrorKind> = new Set(['network', 'unreachable', 'timeout', 'server']);

/** The service could not be reached (as opposed to answering no). */
export const isUnreachable = (err: unknown) => err instanceof BridgeFailure && unreachable.has(err.error.kind);
