/**
 * The four files `bot new-strategy <name>` writes. Plain template functions (no template engine): what they
 * return is exactly what lands on disk, and the generator's test runs the generated test and backtest to prove
 * they work.
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
  /** Import specifier of the SDK's test harness from the test file. */
  readonly testingFromTest: string;
  /** Import specifier of the strategy module from the test file. */
  readonly strategyFromTest: string;
  /** Path of the strategy module as the configs' `use:` gives it: relative to the config files' folder. */
  readonly strategyFromConfig: string;
  /** The sample recording, relative to the config files' folder. */
  readonly sampleFromConfig: string;
  /** Where the files are, as the commands in their comments name them (relative to where `bot` runs). */
  readonly strategyDisplay: string;
  readonly testDisplay: string;
  readonly configDisplay: string;
  readonly backtestDisplay: string;
  /** How the test is run from there (`npx vitest run ...`). */
  readonly testCommand: string;
}

export function strategyTemplate(n: TemplateNames): string {
  return `/**
 * ${n.name}: a strategy skeleton made by \`bot new-strategy\`. It quotes ONE buy below the best bid and ONE sell
 * above the best ask, \`offset\` away (a fraction of the price), and follows the book. Replace the body of
 * \`desiredOrders\` with your idea; keep the rest:
 *
 * - \`ctx.book$\`, \`ctx.balances$\`, \`ctx.orders$\` (your live orders), \`ctx.fills$\` (your fills), \`ctx.trades$\`
 *   and \`ctx.candles(periodMs)\` (the market's public trades, and OHLCV candles of them) are what you see;
 * - you return an Observable of intents (place-limit, place-stop-limit, cancel); the engine quantizes them to the
 *   market's steps, checks the market rules and your risk limits, and only then sends them;
 * - \`ordersToTargets(desired, live)\` turns "the orders I want resting" into the cancels and places that get there,
 *   never placing twice while an order is in flight;
 * - time comes from \`ctx.clock\` / \`ctx.scheduler\` (virtual in tests and backtests): never Date.now() or setTimeout.
 *
 * Test it: \`${n.testCommand}\`; backtest it: \`npx bot backtest ${n.backtestDisplay}\`;
 * run it: \`npx bot run ${n.configDisplay}\` (embedded simulated exchange).
 */
import { combineLatest, mergeMap, from } from 'rxjs';
import { D, decimalParam, defineStrategy, ordersToTargets, bookTop, roundPrice, z, type DesiredOrder, type OrderBook, type Market } from '${n.sdkFromStrategy}';

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
  // roundPrice: on the market's price step, away from the spread, as the engine will send it
  if (bid) out.push({ side: 'buy', price: roundPrice(market, 'buy', bid.times(D(1).minus(params.offset))), amount: params.size, tag: 'bid', postOnly: true });
  if (ask) out.push({ side: 'sell', price: roundPrice(market, 'sell', ask.times(D(1).plus(params.offset))), amount: params.size, tag: 'ask', postOnly: true });
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
 * Run: ${n.testCommand}
 */
import { describe, expect, it } from 'vitest';
import { TestScheduler } from 'rxjs/testing';
import { bookFixture, createTestContext, marketFixture, ownOrderFixture, testParams } from '${n.testingFromTest}';
import strategy, { desiredOrders } from '${n.strategyFromTest}';

const market = marketFixture();
// The params schema's defaults, validated as a config's are: rename or add a param (with a default) and this test
// follows. Try other values with testParams(strategy, { size: '0.5' }).
const params = testParams(strategy);
const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const book = bookFixture({ bid: '100', ask: '101' });
const moved = bookFixture({ bid: '110', ask: '111' });
/** The place intents of what \`desiredOrders\` wants for \`b\`. */
const places = (b: typeof book) => desiredOrders(b, market, params).map((o) => ({ kind: 'place-limit', ...o }));

describe('${n.name}', () => {
  it('wants one buy below the bid and one sell above the ask, on the price step', () => {
    const [buy, sell] = desiredOrders(book, market, params);
    expect(buy?.side).toBe('buy');
    expect(buy?.price.lt(100)).toBe(true);
    expect(sell?.side).toBe('sell');
    expect(sell?.price.gt(101)).toBe(true);
    for (const o of [buy, sell]) expect(o?.price.decimalPlaces()).toBeLessThanOrEqual(market.moneyPrec);
  });

  it('places them on the first book', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const ctx = createTestContext({ market, params, scheduler, book$: cold('a', { a: book }) });
      const [b, s] = places(book);
      expectObservable(strategy.create(ctx)).toBe('(bs)', { b, s });
    });
  });

  it('leaves its resting quotes alone while the book stays put, and follows a move', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const resting = desiredOrders(book, market, params).map((o, i) =>
        ownOrderFixture({ clientOrderId: \`q\${i}\`, side: o.side, price: o.price, amount: o.amount, tag: o.tag }),
      );
      const ctx = createTestContext({ market, params, scheduler, book$: cold('a 999ms a 999ms b', { a: book, b: moved }), orders$: cold('o', { o: resting }) });
      // nothing at 0 s and 1 s; at 2 s the book moved: cancel both, quote around the new touch
      const [b, s] = places(moved);
      expectObservable(strategy.create(ctx)).toBe('2s (cdbs)', { c: { kind: 'cancel', clientOrderId: 'q0' }, d: { kind: 'cancel', clientOrderId: 'q1' }, b, s });
    });
  });
});
`;
}

export function configTemplate(n: TemplateNames): string {
  return `# ${n.name} against the embedded simulated exchange (in-process, loopback HTTP, the real REST client).
#   npx bot run ${n.configDisplay}             # Ctrl-C stops it, cancels its orders and prints a summary
#   npx bot run ${n.configDisplay} --dry-run   # gate and log the intents, send nothing
# For the live venue use \`venue: { kind: rest, region: main, apiKey: \${BOT_API_KEY}, apiSecret: \${BOT_API_SECRET} }\`.
venue:
  kind: sim
  account: bob

strategies:
  - id: ${n.name}
    use: ${n.strategyFromConfig}   # relative to this file
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
  path: var/journal-${n.name}.jsonl   # relative to the folder bot runs in

shutdown:
  cancelOpenOrders: true
`;
}

export function backtestTemplate(n: TemplateNames): string {
  return `# Backtest of ${n.name} on the sample recording (BTC_USDT books recorded from \`bot sim\`), on virtual time: the
# same strategy, rules, risk and executor as \`bot run\`, with a fill model and a report.
#   npx bot backtest ${n.backtestDisplay}    # prints the summary, writes var/backtest-${n.name}/report.{json,html}
# data: and use: are relative to this file; out: to the folder bot runs in.
data: [${n.sampleFromConfig}]
balances: { BTC: "1", USDT: "50000" }   # the account's trade balance at the start
fills: [optimistic, pessimistic]        # both fill assumptions side by side: the PnL band
polling: { bookMs: 1000, balancesMs: 5000, openOrdersMs: 5000, dealsMs: 1000 }
strategies:
  - id: ${n.name}
    use: ${n.strategyFromConfig}
    market: BTC_USDT
    params: { offset: 0.0002, size: 0.001 }   # nearer the touch than config/${n.name}.yaml: the sample's 8 minutes fill some
    risk: { maxOrderNotional: 100, maxOpenOrders: 4, maxLoss: 50 }
out: var/backtest-${n.name}
log: { level: warn }
`;
}
