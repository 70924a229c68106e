import type { Logger } from 'pino';

/**
 * The first SIGINT/SIGTERM asks for a clean stop; a second one during the stop exits at once (130). A repeat within
 * REPEAT_MS of the first is the same request, not a second one: a terminal's Ctrl-C reaches the whole foreground
 * process group, and `npm start` relays the same SIGINT to the daemon once more, a few ms later.
 */
const REPEAT_MS = 1000;

export function onceSignal(logger: Logger): Promise<string> {
  return new Promise((resolveSignal) => {
    let firstAt: number | undefined;
    const handler = (signal: NodeJS.Signals): void => {
      const now = performance.now();
      if (firstAt !== undefined) {
        if (now - firstAt < REPEAT_MS) return;
        logger.warn(`${signal} again: exiting without a clean stop`);
        process.exit(130);
      }
      firstAt = now;
      logger.info(`${signal} received: stopping cleanly (send it again to force)`);
      resolveSignal(signal);
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
  });
}
