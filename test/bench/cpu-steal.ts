import { readFileSync } from 'node:fs';

/** The machine's CPU time so far: user nice system idle iowait irq softirq steal, in clock ticks (/proc/stat). */
export type CpuTimes = readonly number[];

/** Now; undefined where /proc/stat is missing (outside Linux). */
export function cpuTimes(): CpuTimes | undefined {
  try {
    const line = readFileSync('/proc/stat', 'latin1').split('\n', 1)[0] ?? '';
    return line.trim().split(/\s+/).slice(1, 9).map(Number);
  } catch {
    return undefined;
  }
}

/**
 * Between two readings, the share (%) of CPU time the hypervisor took from this virtual machine (the `steal` column)
 * and the share that was busy, over all cores. On a shared VM a latency tail comes mostly from the steal, so a bench
 * prints it beside its figures. Undefined when either reading is.
 */
export function cpuShares(before: CpuTimes | undefined, after: CpuTimes | undefined): { steal: number; busy: number } | undefined {
  if (!before || !after) return undefined;
  const d = after.map((v, i) => v - (before[i] ?? 0));
  const total = d.reduce((a, b) => a + b, 0) || 1;
  const idle = (d[3] ?? 0) + (d[4] ?? 0);
  const steal = d[7] ?? 0;
  return { steal: (100 * steal) / total, busy: (100 * (total - idle - steal)) / total };
}

/** A line for a whole run: what `cpuShares` says between `stealMeter()` and the call of what it returns. */
export function stealMeter(): () => string {
  const before = cpuTimes();
  return () => {
    const s = cpuShares(before, cpuTimes());
    if (!s) return 'CPU steal: not known here (no /proc/stat)';
    return `CPU during the run: ${s.steal.toFixed(1)}% stolen by the hypervisor, ${s.busy.toFixed(1)}% busy (all cores)`;
  };
}
