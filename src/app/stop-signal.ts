import type { Logger } from 'pino';

/**
 * How every long-running command stops on SIGINT/SIGTERM (the daemon, the sim, record, backtest, sweep, worker): the
 * first signal asks for a clean stop; a second one during the stop exits at once (130). A repeat within REPEAT_MS of
 * the first is the same request, not a second one: a terminal's Ctrl-C reaches the whole foreground process group,
 * and `npm start` / `npx bot ...` relay the same SIGINT to the command once more, a few ms later. (A handler taken
 * off after the first signal, `process.once`, left that relay to Node's default action, which killed the command in
 * the middle of its clean stop: `npx bot sim` never said `sim: closed`, `npx bot record` could end without its last
 * flush, and `npx bot backtest` quit without the partial report its first Ctrl-C promises.)
 */
export const REPEAT_MS = 1000;

export interface StopSignalHandlers {
  /** The first signal: start the clean stop. */
  readonly onStop: (signal: NodeJS.Signals) => void;
  /** A second signal, later than REPEAT_MS after the first, just before the process exits with 130. */
  readonly onForce?: (signal: NodeJS.Signals) => void;
  /** The clock the repeat is told by, ms (tests); performance.now by default. */
  readonly now?: () => number;
}

/** Listens for SIGINT/SIGTERM with the policy above until the returned function is called. */
export function onStopSignals(handlers: StopSignalHandlers): () => void {
  let firstAt: number | undefined;
  const clock = handlers.now ?? (() => performance.now());
  const handler = (signal: NodeJS.Signals): void => {
    const now = clock();
    if (firstAt !== undefined) {
      if (now - firstAt < REPEAT_MS) return;
      handlers.onForce?.(signal);
      process.exit(130);
      return;
    }
    firstAt = now;
    handlers.onStop(signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

/**
 * Resolves with the first stop signal (onStopSignals). The listeners stay: a later second signal still forces the
 * exit, and a relayed repeat is still ignored, for as long as the stop takes.
 */
export function untilStopSignal(handlers?: Partial<StopSignalHandlers>): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    onStopSignals({
      onStop: (signal) => {
        handlers?.onStop?.(signal);
        resolve(signal);
      },
      ...(handlers?.onForce === undefined ? {} : { onForce: handlers.onForce }),
    });
  });
}

/** The daemon's: untilStopSignal, each signal logged. */
export function onceSignal(logger: Logger): Promise<string> {
  return untilStopSignal({
    onStop: (signal) => logger.info(`${signal} received: stopping cleanly (send it again to force)`),
    onForce: (signal) => logger.warn(`${signal} again: exiting without a clean stop`),
  });
}
