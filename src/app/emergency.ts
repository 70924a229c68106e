import type { Logger } from 'pino';
import { BotError } from '../model/errors.js';
import type { RunSummary } from '../engine/run-summary.js';
import type { StrategyBoundary } from '../engine/strategy-boundary.js';

/** The exit code of a daemon that ended in an emergency stop (cli/exit-codes.ts maps EmergencyStopError to it). */
export const EMERGENCY_EXIT_CODE = 4;

/** How long an emergency stop may take (cancels, settling orders in doubt) before the process exits regardless. */
export const EMERGENCY_DEADLINE_MS = 60_000;

/** The daemon stopped on a failure, not on request: its orders were cancelled and the journal flushed as it could. */
export class EmergencyStopError extends BotError {
  constructor(
    readonly reason: string,
    readonly summary: RunSummary | undefined,
  ) {
    super(`emergency stop: ${reason}${summary !== undefined ? `; ${afterStop(summary)}` : ''}`, { code: 'ERR_EMERGENCY_STOP' });
  }
}

function afterStop(s: RunSummary): string {
  const doubt = s.inDoubt !== undefined && s.inDoubt.length > 0 ? `; IN DOUBT: ${s.inDoubt.join(', ')} (the dead-man timer stays armed for them)` : '';
  return `orders cancelled, open at stop ${s.openOrdersLeft}${doubt}`;
}

/**
 * The one emergency path of the daemon (#24): an uncaught exception, an unhandled rejection or a failed journal write
 * anywhere in the process ends in the same orderly stop - no new order, every open order cancelled, the journal flushed
 * as far as it can be, one clear line naming the cause, a non-zero exit. A failure traced to a strategy's own code
 * (its boundary scope) stops that strategy alone instead. The first cause wins; later ones are logged.
 */
export class Emergency {
  private cause: string | undefined;
  private resolveTriggered!: (cause: string) => void;
  readonly triggered: Promise<string> = new Promise((resolve) => (this.resolveTriggered = resolve));

  constructor(
    private readonly logger: Logger,
    private readonly boundary: StrategyBoundary,
  ) {}

  /** The first cause, once triggered. */
  get reason(): string | undefined {
    return this.cause;
  }

  trigger(cause: string, error?: unknown): void {
    if (this.cause !== undefined) {
      this.logger.error({ err: error }, `during the emergency stop: ${cause}`);
      return;
    }
    this.cause = cause;
    this.logger.fatal({ err: error }, `EMERGENCY STOP: ${cause}; no new order, cancelling every open order`);
    this.resolveTriggered(cause);
  }

  /** Routes the process's uncaught exceptions and unhandled rejections here; returns the uninstaller. */
  install(): () => void {
    const route = (kind: string) => (error: unknown) => {
      const scope = this.boundary.current();
      if (scope !== undefined && this.cause === undefined) {
        scope.fail(error);
        return;
      }
      this.trigger(`${kind}: ${error instanceof Error ? error.message : String(error)}`, error);
    };
    const onException = route('uncaught exception');
    const onRejection = route('unhandled rejection');
    process.on('uncaughtException', onException);
    process.on('unhandledRejection', onRejection);
    return () => {
      process.off('uncaughtException', onException);
      process.off('unhandledRejection', onRejection);
    };
  }
}
