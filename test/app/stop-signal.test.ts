import { afterEach, describe, expect, it, vi } from 'vitest';
import { onStopSignals, REPEAT_MS } from '../../src/app/stop-signal.js';

// The policy every long-running command stops by (src/app/stop-signal.ts), driven by emitting the signals to this
// process's listeners with a clock of the test's own; test/cli/stop-signals.test.ts sends real ones to real commands.
describe('onStopSignals', () => {
  afterEach(() => vi.restoreAllMocks());

  const setUp = () => {
    let t = 0;
    const stops: string[] = [];
    const forced: string[] = [];
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const listeners = process.listenerCount('SIGINT');
    const dispose = onStopSignals({ onStop: (s) => stops.push(s), onForce: (s) => forced.push(s), now: () => t });
    return { advance: (ms: number) => (t += ms), stops, forced, exit, dispose, listeners };
  };

  it("takes a relayed repeat (npm's, ms later) as the same request: one stop, no exit", () => {
    const s = setUp();
    process.emit('SIGINT', 'SIGINT');
    s.advance(5);
    process.emit('SIGINT', 'SIGINT');
    s.advance(REPEAT_MS - 10);
    process.emit('SIGTERM', 'SIGTERM');
    expect(s.stops).toEqual(['SIGINT']);
    expect(s.forced).toEqual([]);
    expect(s.exit).not.toHaveBeenCalled();
    s.dispose();
  });

  it('a second signal later than that forces the exit (130)', () => {
    const s = setUp();
    process.emit('SIGTERM', 'SIGTERM');
    s.advance(REPEAT_MS);
    process.emit('SIGINT', 'SIGINT');
    expect(s.stops).toEqual(['SIGTERM']);
    expect(s.forced).toEqual(['SIGINT']);
    expect(s.exit).toHaveBeenCalledWith(130);
    s.dispose();
  });

  it('stops listening when disposed', () => {
    const s = setUp();
    expect(process.listenerCount('SIGINT')).toBe(s.listeners + 1);
    expect(process.listenerCount('SIGTERM')).toBeGreaterThan(0);
    s.dispose();
    expect(process.listenerCount('SIGINT')).toBe(s.listeners);
  });
});
