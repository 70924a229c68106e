/**
 * Stop guard: protects inventory with a stop-limit order (the contract's second order type).
 *
 * - Position = the account's base-asset TOTAL (available + freeze, from `balances$`) minus `baseline`. Balances,
 *   not fills, because the inventory to protect is usually bought by something else (another strategy, a manual
 *   order), and `fills$` only carries this strategy's own fills. Set `baseline` to the amount you hold "flat".
 * - Long (position > 0): a SELL stop-limit with activation `trail` below the best bid and limit `limitOffset` below
 *   the activation. Short (position < 0): a BUY stop-limit `trail` above the best ask, limit `limitOffset` above.
 *   The venue activates a sell when the last trade falls to or below the activation price, a buy when it rises to
 *   or above it; the order then rests as a limit order at `price`.
 * - Trailing: when the best bid (long) rose by `step` (a fraction) since the stop was placed, the stop is moved up;
 *   it never moves down (for a short: mirrored).
 * - Replaced when the position changes (a change must last `settleMs`, since balances and orders are polled apart).
 *   When the stop leaves without a cancel (it fired), nothing is placed for `settleMs` so the balances show the fill.
 * - Replacing is cancel-then-place, because the new stop must lock the same balance the old one holds: for one
 *   poll cycle the position is unguarded. The amount is capped by `maxAmount` and by what the balance can lock, and
 *   nothing is placed when the market's minimums (amount, total) do not allow it.
 *
 * Params (YAML `params:`; defaults in ./params.ts): `baseline` (0), `trail` (0.01), `limitOffset` (0.002),
 * `step` (0.002), `maxAmount` (none), `settleMs` (3000), `retryAfterMs` (15000). Orders carry the tag `stop-guard`.
 */
import { combineLatest, EMPTY, from, mergeMap, type Observable } from 'rxjs';
import { bookTop, defineStrategy, type Intent, type StrategyContext } from '../../src/strategy/index.js';
import { planGuard, type GuardState } from './guard-plan.js';
import { stopGuardParams, type StopGuardParams } from './params.js';

export default defineStrategy({
  name: 'stop-guard',
  description: 'Guards the position (base total − baseline) with a trailing stop-limit order',
  params: stopGuardParams,
  create(ctx: StrategyContext<StopGuardParams>): Observable<Intent> {
    const p = ctx.params;
    let state: GuardState = {};
    let placingUntil = -Infinity;
    let holdUntil = -Infinity;
    let previous: string[] = [];
    const canceling = new Map<string, number>(); // client id → may retry after (ms)

    return combineLatest([ctx.book$, ctx.balances$, ctx.orders$]).pipe(
      mergeMap(([book, balances, live]) => {
        const now = ctx.clock.now();
        const present = new Set(live.map((o) => o.clientOrderId));
        // A stop that left without our cancel has most likely fired: let the balances catch up before re-guarding.
        if (previous.some((id) => !present.has(id) && !canceling.has(id))) holdUntil = now + p.settleMs;
        previous = [...present];
        for (const [id, until] of canceling) if (!present.has(id) || until <= now) canceling.delete(id);
        if (live.length > 0 || placingUntil <= now) placingUntil = -Infinity; // the placed stop is on orders$ (or the wait expired)
        const top = bookTop(book);
        const decision = planGuard({
          market: ctx.market,
          params: p,
          balances,
          ...(top.bid ? { bestBid: top.bid } : {}),
          ...(top.ask ? { bestAsk: top.ask } : {}),
          live,
          canceling: new Set(canceling.keys()),
          placing: placingUntil > now,
          hold: holdUntil > now,
          now,
          state,
        });
        state = decision.state;
        if (decision.intents.length === 0) return EMPTY;
        for (const intent of decision.intents) {
          if (intent.kind === 'cancel') canceling.set(intent.clientOrderId, now + p.retryAfterMs);
          if (intent.kind === 'place-stop-limit') placingUntil = now + p.retryAfterMs;
        }
        ctx.log.info({ why: decision.why }, 'stop-guard');
        return from(decision.intents);
      }),
    );
  },
});
