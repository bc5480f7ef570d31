// CPU time of processes during a measurement, so the load generator's own cost stays visible:
// on two shared cores, what the generator and the receivers burn is taken from the service.
// Children are read from /proc/<pid>/stat (utime + stime, Linux clock ticks); this process from
// process.cpuUsage(). Elsewhere than Linux a child reads as NaN (shown blank, never guessed).
import { readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux for every architecture we run on.

/** CPU milliseconds (user + system) a process has used so far; NaN when it cannot be read. */
export function cpuMsOf(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  if (pid === process.pid) {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
  try {
    // Fields after the command name (which may contain spaces and parentheses).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after the name and state.
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return NaN;
  }
}

/**
 * Milliseconds a process's main thread has spent runnable but waiting for a core (the kernel's
 * run-queue time, /proc/<pid>/schedstat); NaN when it cannot be read. On shared cores this tells a
 * service starved of CPU from one waiting for requests.
 */
export function waitingMsOf(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
  } catch {
    return NaN;
  }
}

/** Starts counting for the named processes; `stop()` gives each one's share of a core over the wall time. */
export function cpuMeter(pids: Record<string, number | undefined>) {
  const start = performance.now();
  const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuMsOf(pid)]));
  const waitingBefore = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, waitingMsOf(pid)]));
  return {
    /** `waiting`: each main thread's share of the wall time spent waiting for a core. */
    stop(): { wallMs: number; cpuMs: Record<string, number>; cores: Record<string, number>; waiting: Record<string, number> } {
      const wallMs = performance.now() - start;
      const cpuMs = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuMsOf(pid) - before[k]!]));
      const cores = Object.fromEntries(Object.entries(cpuMs).map(([k, ms]) => [k, ms / wallMs]));
      const waiting = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, (waitingMsOf(pid) - waitingBefore[k]!) / wallMs]));
      return { wallMs, cpuMs, cores, waiting };
    },
  };
}
