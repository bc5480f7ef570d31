import type { BridgeCallName, BridgeOutput, BridgeParsedInput } from '../../../shared/bridge/contract';
import type { Result } from '../../../shared/bridge/result';

/**
 * Calls main answers itself, without a single request to the service: sessions, the desktop, and
 * files (which main looks up, fetches and checks in several steps: main/core/files/).
 */
export type LocalCallName = Extract<BridgeCallName, `session.${string}` | `app.${string}` | `shell.${string}` | `files.${string}`>;

export type Handler<C extends BridgeCallName> = (input: BridgeParsedInput<C>) => Promise<Result<BridgeOutput<C>>>;
export type Handlers<Prefix extends string> = { [C in Extract<LocalCallName, `${Prefix}.${string}`>]: Handler<C> };
