// CPU time of processes during a measurement, so the load generator's own cost stays visible:
// on two shared cores, what the generator and the receivers burn is taken from the service.
// Children are read from /proc/<pid>/stat (utime + stime, Linux clock ticks); this process from
// process.cpuUsage(). Elsewhere than Linux a child reads as NaN (shown blank, never guessed).
import { readdirSync, readFileSync } from 'node:fs';

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
  return (pid === undefined ? undefined : schedOf(pid))?.waiting ?? NaN;
}

/** A process's main thread's running and waiting time so far (`parseSchedstat`); undefined when it cannot be read. */
function schedOf(pid: number): { running: number; waiting: number } | undefined {
  try {
    return parseSchedstat(readFileSync(`/proc/${pid}/schedstat`, 'utf8'));
  } catch {
    return undefined;
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

/** A main thread's time on a core and time runnable but waiting for one, in ms (/proc/<pid>/schedstat). */
export function parseSchedstat(text: string): { running: number; waiting: number } | undefined {
  const [running, waiting] = text.trim().split(/\s+/).map(Number);
  return Number.isFinite(running) && Number.isFinite(waiting) ? { running: running! / 1e6, waiting: waiting! / 1e6 } : undefined;
}

/**
 * The share of the cores' time the machine spent busy between two /proc/stat first lines
 * (`cpu  user nice system idle iowait irq softirq steal guest guest_nice`). Only the first eight
 * count: guest time is already inside user and nice.
 */
export function busyShare(before: string, after: string): number {
  const ticks = (line: string) => line.trim().split(/\s+/).slice(1, 9).map(Number);
  const a = ticks(before);
  const d = ticks(after).map((v, i) => v - (a[i] ?? 0));
  const total = d.reduce((s, v) => s + v, 0);
  const idle = (d[3] ?? 0) + (d[4] ?? 0);
  return total > 0 ? (total - idle) / total : NaN;
}

/** The process ids of Chromium's page processes (renderers) running now; none elsewhere than Linux. */
export function rendererPids(): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      // Chromium rewrites its command line's title: its arguments may be joined by spaces, not NULs.
      if (/(?:^|[\s\0])--type=renderer(?:[\s\0]|$)/.test(readFileSync(`/proc/${e}/cmdline`, 'utf8'))) pids.push(Number(e));
    } catch {
      // Gone since the listing.
    }
  }
  return pids;
}

/**
 * While a page's figures are measured: how long the browser's page processes' main threads ran, and
 * how long they were runnable but waited for a core, summed over the renderers alive at both ends,
 * with the machine's busy share. Where main threads wait for a core while the machine is mostly idle
 * (this project's two-core virtual machine: about a third of their running time, bench/README.md,
 * twenty-eighth stop; why, not found), every frame-bound figure carries that wait. Undefined where
 * /proc cannot be read.
 */
export function rendererSchedMeter() {
  const machine = () => {
    try {
      return readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    } catch {
      return undefined;
    }
  };
  const before = new Map(rendererPids().flatMap((pid) => { const s = schedOf(pid); return s ? [[pid, s] as const] : []; }));
  const statBefore = machine();
  return {
    stop(): { running: number; waiting: number; busy: number } | undefined {
      let running = 0;
      let waiting = 0;
      for (const [pid, a] of before) {
        const b = schedOf(pid);
        if (!b) continue;
        running += b.running - a.running;
        waiting += b.waiting - a.waiting;
      }
      const statAfter = machine();
      if (!before.size || statBefore === undefined || statAfter === undefined) return undefined;
      return { running, waiting, busy: busyShare(statBefore, statAfter) };
    },
  };
}

/** The meter's words as a clause appended to a figure's note; nothing where it was not read. */
export const whileMeasured = (words: string): string => (words ? `; while they were measured, ${words}` : '');

/** The meter's reading as a note's words. */
export function schedWords(s: { running: number; waiting: number; busy: number } | undefined): string {
  if (!s) return '';
  return `the page processes' main threads ran ${s.running.toFixed(0)} ms and waited ${s.waiting.toFixed(0)} ms for a core (${((100 * s.waiting) / Math.max(s.running, 1e-9)).toFixed(0)}% of their running time), the machine ${(100 * s.busy).toFixed(0)}% busy`;
}
