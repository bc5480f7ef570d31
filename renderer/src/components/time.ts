// Times as rows and notes show them. A list row's time is written here, not by the browser's locale
// formatter: the first date a page formats for its locale loads the locale and time-zone data, 12-25 ms
// in a window's new process on this hardware, which a cold open's first rows would pay before they
// are painted (bench/README.md, twentieth stop). The app's words are English; so are these.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Short relative time for list rows, from epoch seconds: "now", "5m", "3h", "12d", then the day ("Nov 14", "Nov 14, 2023" in another year). */
export function relativeTime(epochSeconds: number, now = Date.now()): string {
  if (!epochSeconds) return '';
  const s = Math.max(0, Math.round(now / 1000 - epochSeconds));
  if (s < 60) return 'now';
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  if (s < 86_400 * 30) return `${Math.floor(s / 86_400)}d`;
  const day = new Date(epochSeconds * 1000);
  const short = `${MONTHS[day.getMonth()]} ${day.getDate()}`;
  return day.getFullYear() === new Date(now).getFullYear() ? short : `${short}, ${day.getFullYear()}`;
}

/** The exact local time, in the agent's locale: for tooltips and details, written when asked for. */
export const fullTime = (epochSeconds: number) => new Date(epochSeconds * 1000).toLocaleString();
