/**
 * Waits on a condition, not a fixed time: for tests against something on the wall clock (a sim's timers, a server's
 * cache, a child process). Polls `cond` every `everyMs` and fails after `timeoutMs` naming what it waited for, so a slow
 * machine waits longer instead of failing and a fast one does not wait at all.
 */
export async function waitUntil(what: string, cond: () => boolean | Promise<boolean>, o: { timeoutMs?: number; everyMs?: number } = {}): Promise<void> {
  const timeoutMs = o.timeoutMs ?? 15_000;
  for (const start = Date.now(); !(await cond()); await new Promise((r) => setTimeout(r, o.everyMs ?? 10))) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
  }
}
