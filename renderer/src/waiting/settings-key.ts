/** The waiting-time colours' row in the session's `settings` table (zod-free: the cold open's early read uses it). */
export const WAITING_SETTINGS_KEY = 'waiting';
