import type { Logger } from 'pino';
import type { EngineEvent } from './events.js';

/**
 * How each engine event reaches the log: fills at info (with the status lines, what a person watching `npm start`
 * wants to see); intents, submissions, placements and cancellations at debug (a market maker places hundreds of
 * orders an hour, which buried the status lines); rejections and unknown outcomes at warn.
 * Only ids, prices and reasons are logged, never a secret.
 */
export function logEvent(log: Logger, e: EngineEvent): void {
  // Nothing is formatted for a level that is off: this runs on the tick-to-wire path.
  if (allOff(log) || (!log.isLevelEnabled(LEVEL[e.type] ?? 'info') && !(e.type === 'intent' && e.dryRun))) return;
  switch (e.type) {
    case 'intent':
      if (e.dryRun) log.info({ strategy: e.strategyId, intent: describeIntent(e.intent) }, 'dry-run intent (not sent)');
      else log.debug({ strategy: e.strategyId, intent: describeIntent(e.intent) }, 'intent');
      return;
    case 'submitted':
      log.debug({ strategy: e.strategyId, clientOrderId: e.clientOrderId, kind: e.kind }, 'submitted');
      return;
    case 'accepted':
      log.debug(
        { strategy: e.strategyId, clientOrderId: e.clientOrderId, orderId: e.order.orderId },
        `placed ${e.order.side} ${e.order.amount.toFixed()} ${e.order.market} @ ${e.order.price.toFixed()}`,
      );
      return;
    case 'fill':
      log.info(
        { strategy: e.strategyId ?? null, dealId: e.deal.id, clientOrderId: e.deal.clientOrderId, role: e.deal.role },
        `fill ${e.deal.side} ${e.deal.amount.toFixed()} ${e.deal.market} @ ${e.deal.price.toFixed()} fee ${e.deal.fee.toFixed()}`,
      );
      return;
    case 'canceled':
      log.debug({ strategy: e.strategyId, clientOrderId: e.clientOrderId }, 'cancelled');
      return;
    case 'rejected':
      log.warn({ strategy: e.strategyId, stage: e.stage, reason: e.reason, clientOrderId: e.clientOrderId }, `rejected: ${e.message}`);
      return;
    case 'unknown':
      log.warn({ strategy: e.strategyId, clientOrderId: e.clientOrderId }, `outcome unknown, reconciling: ${e.message}`);
      return;
    case 'reconciled':
      log.info({ strategy: e.strategyId, clientOrderId: e.clientOrderId, state: e.state }, 'reconciled');
      return;
    case 'adopted':
      log.info({ strategy: e.strategyId, clientOrderId: e.clientOrderId }, 'adopted open order');
      return;
    case 'risk-halt':
      log.error({ strategy: e.strategyId }, `strategy halted: ${e.reason}`);
      return;
    case 'account-halt':
      log.error({ limit: e.limit }, `account limit crossed, halting every strategy: ${e.reason}`);
      return;
    case 'stale':
      if (e.stale)
        log.warn(
          { market: e.market, source: e.source, canceled: e.canceled },
          `market data is stale: orders refused${e.canceled ? `, ${e.canceled} resting orders being cancelled` : ''}`,
        );
      else log.info({ market: e.market, source: e.source }, 'market data fresh again');
      return;
    case 'book-held':
      // Once per episode, not per poll: the counter (bot_books_held_total) has every poll.
      if (e.heldPolls === 1) log.warn({ market: e.market, reason: e.reason }, `order book held back (${e.reason}): ${e.message}`);
      return;
    case 'control':
      log.warn(
        { strategy: e.strategyId, action: e.action, cancelOrders: e.cancelOrders, source: e.source },
        `control: ${e.action}${e.strategyId ? ` ${e.strategyId}` : ''}`,
      );
      return;
    case 'error':
      log.warn({ strategy: e.strategyId, code: e.code }, e.message);
      return;
  }
}

const LEVEL: Partial<Record<EngineEvent['type'], string>> = {
  intent: 'debug',
  submitted: 'debug',
  accepted: 'debug',
  canceled: 'debug',
  rejected: 'warn',
  unknown: 'warn',
  error: 'warn',
  stale: 'info',
  'book-held': 'warn',
  'risk-halt': 'error',
  'account-halt': 'error',
  control: 'warn',
};

/** Every level an event is logged at (LEVEL's, and info for the rest and for dry-run intents). */
const LEVELS_USED = ['debug', 'info', 'warn', 'error'] as const;

/**
 * True when none of LEVELS_USED is enabled (a backtest's silent logger): every event is then dropped, and is dropped
 * without the two table look-ups per event. Kept per logger with the level value it was worked out for: pino's
 * isLevelEnabled depends on nothing else (its level table and comparison are fixed when the logger is made), so a
 * level change is seen at the next event.
 */
function allOff(log: Logger): boolean {
  const at = log.levelVal;
  // the logger and level asked last (every event of a lane asks for its one logger): no WeakMap look-up
  if (log === lastLogger && at === lastAt) return lastOff;
  const known = offByLogger.get(log);
  let off: boolean;
  if (known !== undefined && known.at === at) off = known.off;
  else {
    off = !LEVELS_USED.some((level) => log.isLevelEnabled(level));
    // a logger without a numeric level value is asked every time (NaN equals nothing)
    offByLogger.set(log, { at: typeof at === 'number' ? at : Number.NaN, off });
  }
  // the answer for this logger at this level, whichever logger asks next (a second lane's in the same thread only
  // misses this slot and reads its own entry above)
  lastLogger = log;
  lastAt = typeof at === 'number' ? at : Number.NaN;
  lastOff = off;
  return off;
}
const offByLogger = new WeakMap<Logger, { readonly at: number; readonly off: boolean }>();
let lastLogger: Logger | undefined;
let lastAt = Number.NaN;
let lastOff = false;

function describeIntent(i: import('../strategy/intents.js').Intent): string {
  switch (i.kind) {
    case 'place-limit':
      return `${i.side} ${i.amount.toFixed()} @ ${i.price.toFixed()}${i.postOnly ? ' post-only' : ''}${i.tag ? ` [${i.tag}]` : ''}`;
    case 'place-stop-limit':
      return `stop ${i.side} ${i.amount.toFixed()} @ ${i.price.toFixed()} when ${i.activationPrice.toFixed()}${i.tag ? ` [${i.tag}]` : ''}`;
    case 'cancel':
      return `cancel ${i.clientOrderId}`;
    case 'cancel-all':
      return 'cancel all';
  }
}
