/**
 * The three files `bot new-strategy <name>` writes. Plain template functions (no template engine): what they
 * return is exactly what lands on disk, and the generator's test runs the generated test to prove it passes.
 */

export interface TemplateNames {
  /** kebab-case strategy name, e.g. `my-quoter`. */
  readonly name: string;
  /** camelCase identifier derived from the name, e.g. `myQuoter`. */
  readonly ident: string;
  /** Import specifier of the SDK from the strategy file (`../../src/strategy/index.js` inside the repo). */
  readonly sdkFromStrategy: string;
  /** PascalCase type name of the params, e.g. `MyQuoterParams`. */
  readonly paramsType: string;
  /** Import specifier of the SDK from the test file. */
  readonly sdkFromTest: string;
  /** Import specifier of the SDK's test harness from the test file. */
  readonly testingFromTest: string;
  /** Import specifier of the strategy module from the test file. */
  readonly strategyFromTest: string;
  /** Path of the strategy module as the config's `use:` gives it (relative to where `bot run` is started). */
  readonly strategyFromCwd: string;
}

export function strategyTemplate(n: TemplateNames): string {
  return `/**
 * ${n.name}: a strategy skeleton made by \`bot new-strategy\`. It quotes ONE buy below the best bid and ONE sell
 * above the best ask, \`offset\` away (a fraction of the price), and follows the book. Replace the body of
 * \`desiredOrders\` with your idea; keep the rest:
 *
 * - \`ctx.book$\`, \`ctx.balances$\`, \`ctx.orders$\` (your live orders), \`ctx.fills$\` (your fills) are what you see;
 * - you return an Observable of intents (place-limit, place-stop-limit, cancel); the engine quantizes them to the
 *   market's steps, checks the market rules and your risk limits, and only then sends them;
 * - \`ordersToTargets(desired, live)\` turns "the orders I want resting" into the cancels and places that get there,
 *   never placing twice while an order is in flight;
 * - time comes from \`ctx.clock\` / \`ctx.scheduler\` (virtual in tests and backtests): never Date.now() or setTimeout.
 *
 * Run it: \`bot run config/${n.name}.yaml\` (embedded simulated exchange), test it: \`npx vitest run test/strategies/${n.name}.test.ts\`.
 */
import { combineLatest, mergeMap, from } from 'rxjs';
import { D, Decimal, decimalParam, defineStrategy, ordersToTargets, bookTop, z, type DesiredOrder, type OrderBook, type Market } from '${n.sdkFromStrategy}';

/**
 * Params with their defaults; YAML \`params:\` is validated against this before the strategy starts. Decimals
 * (\`decimalParam\`) accept a YAML number or a decimal string and come out as Decimal: money is never a JS number.
 */
export const ${n.ident}Params = z
  .object({
    /** Distance of each quote from the touch, as a fraction of the price (0.001 = 0.1 %). */
    offset: decimalParam({ positive: true, max: '0.5' }).default(D('0.001')),
    /** Base amount of each quote. */
    size: decimalParam({ positive: true }).default(D('0.001')),
  })
  .strict();

export type ${n.paramsType} = z.output<typeof ${n.ident}Params>;

/** The orders this strategy wants resting for one book snapshot. Pure: test it directly. */
export function desiredOrders(book: OrderBook, market: Market, params: ${n.paramsType}): DesiredOrder[] {
  const { bid, ask } = bookTop(book);
  const out: DesiredOrder[] = [];
  if (bid) out.push({ side: 'buy', price: bid.times(D(1).minus(params.offset)).toDecimalPlaces(market.moneyPrec, Decimal.ROUND_DOWN), amount: params.size, tag: 'bid', postOnly: true });
  if (ask) out.push({ side: 'sell', price: ask.times(D(1).plus(params.offset)).toDecimalPlaces(market.moneyPrec, Decimal.ROUND_UP), amount: params.size, tag: 'ask', postOnly: true });
  return out;
}

export default defineStrategy({
  name: '${n.name}',
  description: 'One buy below the bid and one sell above the ask, following the book',
  params: ${n.ident}Params,
  create(ctx) {
    // Re-quote only when the wanted price moved by more than half the offset: saves rate budget and queue place.
    const tolerance = { priceTolerance: ctx.params.offset.div(2), market: ctx.market };
    return combineLatest([ctx.book$, ctx.orders$]).pipe(
      mergeMap(([book, live]) => from(ordersToTargets(desiredOrders(book, ctx.market, ctx.params), live, tolerance))),
    );
  },
});
`;
}

export function testTemplate(n: TemplateNames): string {
  return `/**
 * Tests of ${n.name} on virtual time: the RxJS TestScheduler drives the strategy's streams, so a test of minutes
 * of market runs in milliseconds and never sleeps. \`createTestContext\` builds the context the engine would give;
 * pass the streams your test needs as marbles (\`cold\`/\`hot\`) and check the intents with \`expectObservable\`.
 */
import { describe, expect, it } from 'vitest';
import { TestScheduler } from 'rxjs/testing';
import { D } from '${n.sdkFromTest}';
import { bookFixture, createTestContext, marketFixture, ownOrderFixture } from '${n.testingFromTest}';
import strategy from '${n.strategyFromTest}';

const market = marketFixture();
const params = strategy.params.parse({ offset: '0.01', size: '0.5' });
const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('${n.name}', () => {
  it('quotes one buy below the bid and one sell above the ask', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const ctx = createTestContext({ market, params, scheduler, book$: cold('a', { a: bookFixture({ bid: '100', ask: '101' }) }) });
      expectObservable(strategy.create(ctx)).toBe('(bs)', {
        b: { kind: 'place-limit', side: 'buy', price: D('99'), amount: D('0.5'), tag: 'bid', postOnly: true },
        s: { kind: 'place-limit', side: 'sell', price: D('102.01'), amount: D('0.5'), tag: 'ask', postOnly: true },
      });
    });
  });

  it('leaves its resting quotes alone while the book stays put, and follows a move', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const resting = [
        ownOrderFixture({ clientOrderId: 'b1', side: 'buy', price: '99', amount: '0.5', tag: 'bid' }),
        ownOrderFixture({ clientOrderId: 's1', side: 'sell', price: '102.01', amount: '0.5', tag: 'ask' }),
      ];
      const ctx = createTestContext({
        market,
        params,
        scheduler,
        book$: cold('a 999ms a 999ms b', { a: bookFixture({ bid: '100', ask: '101' }), b: bookFixture({ bid: '110', ask: '111' }) }),
        orders$: cold('o', { o: resting }),
      });
      // nothing at 0 s and 1 s; at 2 s the book jumped: cancel both, quote around the new touch
      expectObservable(strategy.create(ctx)).toBe('2s (cdbs)', {
        c: { kind: 'cancel', clientOrderId: 'b1' },
        d: { kind: 'cancel', clientOrderId: 's1' },
        b: { kind: 'place-limit', side: 'buy', price: D('108.9'), amount: D('0.5'), tag: 'bid', postOnly: true },
        s: { kind: 'place-limit', side: 'sell', price: D('112.11'), amount: D('0.5'), tag: 'ask', postOnly: true },
      });
    });
  });
});
`;
}

export function configTemplate(n: TemplateNames): string {
  return `# ${n.name} against the embedded simulated exchange (in-process, loopback HTTP, the real REST client).
#   bot run config/${n.name}.yaml             # Ctrl-C stops it, cancels its orders and prints a summary
#   bot run config/${n.name}.yaml --dry-run   # gate and log the intents, send nothing
# For the live venue use \`venue: { kind: rest, region: main, apiKey: \${BOT_API_KEY}, apiSecret: \${BOT_API_SECRET} }\`.
venue:
  kind: sim
  account: bob

strategies:
  - id: ${n.name}
    use: ${n.strategyFromCwd}
    market: BTC_USDT
    params:
      offset: 0.001     # quotes 0.1 % outside the touch
      size: 0.001       # BTC per quote
    risk:
      maxOrderNotional: 100     # USDT per order
      maxOpenOrders: 4
      maxOrdersPerMinute: 60
      maxLoss: 50               # USDT: halts the strategy and cancels its orders

polling:
  bookMs: 1000

journal:
  path: var/journal-${n.name}.jsonl

shutdown:
  cancelOpenOrders: true
`;
}
