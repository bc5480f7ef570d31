// The service's mixed time formats (chatwoot-compat §9.2): REST conversations use epoch seconds
// (0 when unset), `updated_at` is a float, some fields are ISO-8601 with milliseconds.
export const epoch = (ms: number | null | undefined): number => (ms == null ? 0 : Math.floor(ms / 1000));
export const epochFloat = (ms: number): number => ms / 1000;
export const iso = (ms: number | null | undefined): string | null => (ms == null ? null : new Date(ms).toISOString());
