/**
 * `npm run bench -- matching`: in-process matching throughput of the simulated exchange (exact
 * decimals, funds locked and settled, fees charged, deals recorded) next to the npm package
 * hft-limit-order-book (plain numbers, no ledger) on the SAME seeded order stream: limit orders that
 * rest and that cross, plus cancels. Prints steps/s for both and the ratio (ours / theirs), and
 * checks that both engines end with the same book. Rounds alternate between the engines and each
 * engine's best round counts; time is this process's CPU time (process.cpuUsage), which a busy shared
 * machine disturbs less than wall time (wall-clock figures are printed too).
 */
import { OrderBook as HftOrderBook, Side as HftSide } from 'hft-limit-order-book';
import { D, type Decimal, fmt } from '../../src/model/decimal.js';
import { createPrng } from '../../src/sim/prng.js';
import { SimExchange } from '../../src/sim/exchange.js';
import { parseSimConfig } from '../../src/sim/sim-config.js';

const ORDERS = 60_000;
const ROUNDS = 5;
const ACCOUNTS = ['a', 'b', 'c', 'd'];

interface Step {
  readonly kind: 'limit' | 'cancel';
  readonly index: number;
  readonly account: string;
  readonly side: 'buy' | 'sell';
  /** Price in ticks of 0.01 and size in lots of 0.000001: the hft book gets these integers. */
  readonly ticks: number;
  readonly lots: number;
  readonly price: Decimal;
  readonly amount: Decimal;
  /** For a cancel: the index of the order to cancel. */
  readonly target: number;
}

/** Seeded stream: a drifting mid; ~30 % of orders cross the spread; 20 % of steps cancel a recent order. */
export function generate(seed: number): Step[] {
  const prng = createPrng(seed);
  const steps: Step[] = [];
  let mid = 3_000_000; // 30000.00 in ticks
  for (let i = 0; i < ORDERS; i++) {
    mid += prng.int(5) - 2;
    const account = ACCOUNTS[prng.int(ACCOUNTS.length)]!;
    if (i > 50 && prng.next() < 0.2) {
      steps.push({ kind: 'cancel', index: i, account, side: 'buy', ticks: 0, lots: 0, price: D(0), amount: D(0), target: i - 1 - prng.int(50) });
      continue;
    }
    const side = prng.next() < 0.5 ? 'buy' : 'sell';
    const crossing = prng.next() < 0.3;
    const offset = crossing ? -prng.int(5) : 1 + prng.int(40);
    const ticks = side === 'buy' ? mid - offset : mid + offset;
    const lots = 1_000 + prng.int(200_000);
    steps.push({ kind: 'limit', index: i, account, side, ticks, lots, price: D(ticks).div(100), amount: D(lots).div(1_000_000), target: -1 });
  }
  return steps;
}

function makeExchange(): { ex: SimExchange; ids: number[]; owners: string[] } {
  const config = parseSimConfig({
    markets: [
      { name: 'BTC_USDT', stock: 'BTC', money: 'USDT', stockPrec: 6, moneyPrec: 2, minAmount: '0.000001', minTotal: '0', makerFee: '0.1', takerFee: '0.2' },
    ],
    accounts: ACCOUNTS.map((name) => ({ name, trade: { BTC: '100000000', USDT: '1000000000000000' } })),
    history: { maxFinishedOrders: 1_000, maxDeals: 1_000 },
  });
  return { ex: new SimExchange(config, () => 1_700_000_000_000), ids: [], owners: [] };
}

/** CPU milliseconds (user + system) and wall milliseconds of `fn`. */
function measure(fn: () => void): { cpu: number; wall: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / 1000, wall };
}

export function runSim(steps: readonly Step[]): { ex: SimExchange } {
  const { ex, ids, owners } = makeExchange();
  for (const s of steps) {
    if (s.kind === 'cancel') {
      const id = ids[s.target];
      if (id !== undefined) ex.cancel(owners[s.target]!, 'BTC_USDT', { orderId: id });
      continue;
    }
    const r = ex.placeLimit(s.account, { market: 'BTC_USDT', side: s.side, amount: s.amount, price: s.price });
    if (!r.ok) throw new Error(`bench stream rejected: ${r.message}`);
    ids[s.index] = r.order.orderId;
    owners[s.index] = s.account;
  }
  return { ex };
}

function runHft(steps: readonly Step[]): { book: HftOrderBook } {
  const book = new HftOrderBook();
  for (const s of steps) {
    if (s.kind === 'cancel') {
      book.cancel(String(s.target));
      continue;
    }
    book.limit({ id: String(s.index), side: s.side === 'buy' ? HftSide.BUY : HftSide.SELL, size: s.lots, price: s.ticks });
  }
  return { book };
}

/** Both final books as "ticks:lots" lines, so the two engines can be compared exactly. */
function sameBook(ex: SimExchange, book: HftOrderBook): boolean {
  const ours = ex.book('BTC_USDT', { limit: 100 });
  const [asks, bids] = book.depth();
  const theirs = (levels: number[][]) => levels.map(([p, q]) => `${p}:${q}`);
  const mine = (levels: { price: Decimal; amount: Decimal }[]) => levels.map((l) => `${fmt(l.price.mul(100))}:${fmt(l.amount.mul(1_000_000))}`);
  // hft lists asks from the highest price; ours from the best (lowest).
  const a = theirs([...asks].sort((x, y) => x[0] - y[0])).slice(0, 100);
  const b = theirs([...bids].sort((x, y) => y[0] - x[0])).slice(0, 100);
  return JSON.stringify(a) === JSON.stringify(mine([...ours.asks])) && JSON.stringify(b) === JSON.stringify(mine([...ours.bids]));
}

export default async function bench(): Promise<void> {
  const steps = generate(42);
  const orders = steps.filter((s) => s.kind === 'limit').length;
  const cancels = steps.length - orders;
  // Warm-up so both run JIT-compiled code; also the correctness check: both end with the same book.
  const identical = sameBook(runSim(steps).ex, runHft(steps).book);
  const sim: { cpu: number; wall: number }[] = [];
  const hft: { cpu: number; wall: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    sim.push(measure(() => runSim(steps)));
    hft.push(measure(() => runHft(steps)));
  }
  const rate = (ms: number) => (steps.length / ms) * 1000;
  const best = (xs: { cpu: number; wall: number }[], k: 'cpu' | 'wall') => Math.min(...xs.map((x) => x[k]));
  const fmtRate = (ms: number) => Math.round(rate(ms)).toLocaleString('en');
  process.stdout.write(
    [
      `stream: ${steps.length} steps (${orders} limit orders, ${cancels} cancels), seed 42; best of ${ROUNDS} alternating rounds`,
      `  SimExchange (exact decimals, ledger, fees, deals): ${fmtRate(best(sim, 'cpu'))} steps/s CPU (${fmtRate(best(sim, 'wall'))} wall)`,
      `  hft-limit-order-book (numbers, no ledger):        ${fmtRate(best(hft, 'cpu'))} steps/s CPU (${fmtRate(best(hft, 'wall'))} wall)`,
      `  ratio SimExchange / hft-limit-order-book: ${(best(hft, 'cpu') / best(sim, 'cpu')).toFixed(2)} CPU, ${(best(hft, 'wall') / best(sim, 'wall')).toFixed(2)} wall (target >= 1)`,
      `  final books identical: ${identical ? 'yes' : 'NO'}`,
      '',
    ].join('\n'),
  );
}
