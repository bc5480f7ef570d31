// The ActionCable wire protocol as Rails speaks it (actioncable's INTERNAL constants,
// Connection::Base and Channel::Base): JSON text frames, the server's `type`d frames, the client's
// commands, and the sub-protocol choice. Pure: no sockets here.

export const CABLE_PATHS = new Set(['/cable', '/cable/']);

/** Rails' Server::Connections::BEAT_INTERVAL: a ping every 3 s; clients call a connection stale after two missed. */
export const BEAT_INTERVAL_MS = 3_000;

/** Rails offers both; `actioncable-unsupported` is the one its client treats as "stop, do not reconnect". */
const PROTOCOLS = ['actioncable-v1-json', 'actioncable-unsupported'];

/**
 * The sub-protocol to answer with: the first the client offered that Rails also speaks (the
 * websocket-driver's rule), or none (then no Sec-WebSocket-Protocol header; Rails accepts such a
 * connection too).
 */
export function selectProtocol(offered: Set<string>): string | false {
  for (const p of offered) if (PROTOCOLS.includes(p)) return p;
  return false;
}

export type DisconnectReason = 'unauthorized' | 'invalid_request' | 'server_restart' | 'remote';

// Key order as Rails encodes them.
export const frames = {
  welcome: () => JSON.stringify({ type: 'welcome' }),
  ping: (unixSeconds: number) => JSON.stringify({ type: 'ping', message: unixSeconds }),
  confirm: (identifier: string) => JSON.stringify({ identifier, type: 'confirm_subscription' }),
  reject: (identifier: string) => JSON.stringify({ identifier, type: 'reject_subscription' }),
  disconnect: (reason: DisconnectReason, reconnect: boolean) => JSON.stringify({ type: 'disconnect', reason, reconnect }),
  /** A broadcast to one subscription; `message` is already JSON (`{"event":…,"data":…}`), encoded once for every recipient. */
  message: (identifier: string, message: string) => `{"identifier":${JSON.stringify(identifier)},"message":${message}}`,
};

export type Command =
  | { command: 'subscribe' | 'unsubscribe'; identifier: string }
  | { command: 'message'; identifier: string; data: Record<string, unknown> };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A client command, or undefined for anything Rails would log and ignore (not JSON, an unknown
 * command, an identifier that is not a JSON object's text, `message` data that is not one).
 */
export function parseCommand(text: string): Command | undefined {
  const cmd = parseJson(text);
  if (!isObject(cmd) || typeof cmd.identifier !== 'string' || !isObject(parseJson(cmd.identifier))) return undefined;
  if (cmd.command === 'subscribe' || cmd.command === 'unsubscribe') return { command: cmd.command, identifier: cmd.identifier };
  if (cmd.command !== 'message' || typeof cmd.data !== 'string') return undefined;
  const data = parseJson(cmd.data);
  return isObject(data) ? { command: 'message', identifier: cmd.identifier, data } : undefined;
}

/** The identifier's parameters (`channel`, `pubsub_token`, …); parseCommand has checked it is an object. */
export const identifierParams = (identifier: string) => JSON.parse(identifier) as Record<string, unknown>;
