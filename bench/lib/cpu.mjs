// CPU accounting for benchmarks on a shared machine: the server's own CPU time per request is a
// steadier figure than latency when other work competes for the cores.
import { readdirSync, readFileSync } from "node:fs";

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU time (ms) used so far by process `pid`, or null when unknown. */
export function processCpuMs(pid) {
  if (!pid) return null;
  try {
    // Fields after the command name (which may contain spaces): utime is the 14th, stime the 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

/**
 * CPU time (ms) used so far by process `pid` and its live child processes (the server's worker
 * processes), or null when unknown. A child that exits between two readings takes its time away.
 */
export function processTreeCpuMs(pid) {
  const own = processCpuMs(pid);
  if (own === null) return null;
  let total = own;
  for (const entry of readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // fields[1] is the parent's pid.
      if (Number(fields[1]) === pid) total += (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    } catch {
      // The process ended while we looked.
    }
  }
  return total;
}

/** Busy and total CPU time of the whole machine so far (ms, summed over cores). */
export function machineCpuMs() {
  try {
    const [, ...nums] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/);
    const v = nums.map(Number);
    const idle = v[3] + (v[4] ?? 0);
    const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: (total - idle) * TICK_MS, total: total * TICK_MS };
  } catch {
    return null;
  }
}
