/** Short relative time for list rows, from epoch seconds. */
export function relativeTime(epochSeconds: number, now = Date.now()): string {
  if (!epochSeconds) return '';
  const s = Math.max(0, Math.round(now / 1000 - epochSeconds));
  if (s < 60) return 'now';
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  if (s < 86_400 * 30) return `${Math.floor(s / 86_400)}d`;
  return new Date(epochSeconds * 1000).toLocaleDateString();
}

export const fullTime = (epochSeconds: number) => new Date(epochSeconds * 1000).toLocaleString();
