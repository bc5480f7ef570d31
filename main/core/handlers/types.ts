import type { BridgeCallName, BridgeOutput, BridgeParsedInput } from '../../../shared/bridge/contract';
import type { Result } from '../../../shared/bridge/result';

/** Calls main answers itself, without a request to the service. */
export type LocalCallName = Extract<BridgeCallName, `session.${string}` | `app.${string}` | `shell.${string}`>;

export type Handler<C extends BridgeCallName> = (input: BridgeParsedInput<C>) => Promise<Result<BridgeOutput<C>>>;
export type Handlers<Prefix extends string> = { [C in Extract<LocalCallName, `${Prefix}.${string}`>]: Handler<C> };
