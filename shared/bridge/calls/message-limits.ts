// Sending's constants, apart from its call schemas (messages.ts): the renderer checks a draft and
// its files against them, and importing messages.ts for them built its schemas, and every record
// schema behind them, with zod at every cold open.

/** The key of the send marker inside `content_attributes`. */
export const CLIENT_MESSAGE_ID_KEY = 'client_message_id';
/** The service's limit (chatwoot-compat §2.5). */
export const MAX_MESSAGE_LENGTH = 150_000;

/** Files one message may carry through the bridge: each, how many, and all together (bytes). */
export const MAX_UPLOAD_FILE_BYTES = 20 * 1024 * 1024;
export const MAX_UPLOAD_FILES = 10;
export const MAX_UPLOAD_TOTAL_BYTES = 25 * 1024 * 1024;
