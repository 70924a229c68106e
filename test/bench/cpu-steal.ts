import { readFileSync } from 'node:fs';

/**
 * The share of CPU time the hypervisor took from this virtual machine (the `steal` column of /proc/stat) and the share
 * that was busy, between `stealMeter()` and the call of what it returns. On a shared VM a latency tail comes mostly
 * from there, so a bench prints it beside its figures. Outside Linux it says so instead.
 */
export function stealMeter(): () => string {
  const before = cpuTimes();
  return () => {
    const after = cpuTimes();
    if (!before || !after) return 'CPU steal: not known here (no /proc/stat)';
    const d = after.map((v, i) => v - (before[i] ?? 0));
    const total = d.reduce((a, b) => a + b, 0) || 1;
    const idle = (d[3] ?? 0) + (d[4] ?? 0);
    const steal = d[7] ?? 0;
    return `CPU during the run: ${((100 * steal) / total).toFixed(1)}% stolen by the hypervisor, ${((100 * (total - idle - steal)) / total).toFixed(1)}% busy (all cores)`;
  };
}

/** user nice system idle iowait irq softirq steal, in clock ticks; undefined where /proc/stat is missing. */
function cpuTimes(): number[] | undefined {
  try {
    const line = readFileSync('/proc/stat', 'latin1').split('\n', 1)[0] ?? '';
    return line.trim().split(/\s+/).slice(1, 9).map(Number);
  } catch {
    return undefined;
  }
}
