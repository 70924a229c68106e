import { Session } from 'node:inspector/promises';

/**
 * Runs `f` under V8's CPU profiler (in this process, 1 ms sampling) and returns the share of the main thread's
 * samples that were `(idle)`: time the thread was not running JavaScript or the engine but waiting in the event loop.
 * The same measure as a `node --cpu-prof` profile's "(idle)" line. The run is slower than an unprofiled one: time it
 * separately.
 */
export async function idleShare<T>(f: () => Promise<T>): Promise<{ value: T; idle: number; gc: number }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 1000 });
    await session.post('Profiler.start');
    const value = await f();
    const { profile } = await session.post('Profiler.stop');
    const names = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName]));
    let total = 0;
    let idle = 0;
    let gc = 0;
    const deltas = profile.timeDeltas ?? [];
    (profile.samples ?? []).forEach((id, i) => {
      const dt = deltas[i] ?? 0;
      total += dt;
      const name = names.get(id);
      if (name === '(idle)') idle += dt;
      else if (name === '(garbage collector)') gc += dt;
    });
    return { value, idle: total > 0 ? idle / total : 0, gc: total > 0 ? gc / total : 0 };
  } finally {
    session.disconnect();
  }
}
