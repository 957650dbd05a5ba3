import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time (user + system) of whole process trees, read from /proc (Linux only; elsewhere
 * every figure is 0). Robust to a busy machine where wall-clock figures are not: it says what
 * one creation costs each component, whatever else runs beside the bench.
 */
const TICK_MS = 10; // USER_HZ is 100 on Linux

interface Proc { ppid: number; ms: number; cmdline: string }

function processes(): Map<number, Proc> {
  const all = new Map<number, Proc>();
  let entries: string[] = [];
  try { entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e)); } catch { return all; }
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // comm may contain spaces and parentheses: the fields after it start past the last ')'
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      all.set(Number(entry), { ppid: Number(fields[1]), ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS, cmdline });
    } catch { /* the process ended while we read */ }
  }
  return all;
}

function tree(all: Map<number, Proc>, root: number): number[] {
  const pids = [root];
  for (let i = 0; i < pids.length; i += 1) for (const [pid, p] of all) if (p.ppid === pids[i]) pids.push(pid);
  return pids.filter((pid) => all.has(pid));
}

/** A component: the roots of its process trees, resolved anew at every reading (processes come and go). */
export type Roots = (all: Map<number, Proc>) => number[];

export const byPid = (pid: number): Roots => () => [pid];
export const byCommandLine = (pattern: RegExp): Roots => (all) => [...all].filter(([, p]) => pattern.test(p.cmdline)).map(([pid]) => pid);

export type CpuReading = Map<string, Map<number, number>>;

export function readCpu(components: Record<string, Roots>): CpuReading {
  const all = processes();
  return new Map(Object.entries(components).map(([name, roots]) => {
    const pids = new Set(roots(all).flatMap((root) => tree(all, root)));
    return [name, new Map([...pids].map((pid) => [pid, all.get(pid)!.ms]))];
  }));
}

/** CPU ms each component spent between two readings (a process born in between counts from 0). */
export function cpuBetween(before: CpuReading, after: CpuReading): Record<string, number> {
  return Object.fromEntries([...after].map(([name, pids]) => {
    const earlier = before.get(name) ?? new Map<number, number>();
    return [name, [...pids].reduce((sum, [pid, ms]) => sum + ms - (earlier.get(pid) ?? 0), 0)];
  }));
}

/** The parent of a process (e.g. the postmaster of one of our Postgres backends), or null. */
export function parentOf(pid: number): number | null {
  return processes().get(pid)?.ppid ?? null;
}
