import { D, type Decimal } from '../model/decimal.js';
import type { Market } from '../model/market.js';
import { parseSimConfig, type SimConfig } from './sim-config.js';

export interface PaperSimConfigOptions {
  /** The upstream's markets the paper venue mirrors, with ITS rules (and the fees the paper account pays). */
  readonly markets: readonly Market[];
  /** The paper account's trade balance per ticker; assets of the markets left out start at 0. */
  readonly balances: Readonly<Record<string, Decimal>>;
  /** The client account the daemon trades as. */
  readonly account: string;
  /** The internal account whose orders mirror the upstream's book. Default `market`. */
  readonly flowAccount?: string | undefined;
  /** Period of the live flow's steps, ms. Default 250. */
  readonly stepMs?: number | undefined;
}

const HUNDRED = D(100);

/**
 * The sim config of a paper venue (live-flow.ts): the upstream's markets with their rules, one client account with
 * the configured balances, the flow account funded far beyond any book it will mirror, and nothing else (no
 * synthetic flow, no investments, no main balances).
 */
export function paperSimConfig(o: PaperSimConfigOptions): SimConfig {
  const flowAccount = o.flowAccount ?? 'market';
  const assets = [...new Set(o.markets.flatMap((m) => [m.stock, m.money]))];
  const stocks = new Set(o.markets.map((m) => m.stock));
  const huge = Object.fromEntries(assets.map((a) => [a, stocks.has(a) ? '1000000000' : '1000000000000000']));
  const trade = Object.fromEntries(assets.map((a) => [a, (o.balances[a] ?? D(0)).toFixed()]));
  return parseSimConfig(
    {
      markets: o.markets.map((m) => ({
        name: m.name,
        stock: m.stock,
        money: m.money,
        stockPrec: m.stockPrec,
        moneyPrec: m.moneyPrec,
        minAmount: m.minAmount.toFixed(),
        minTotal: m.minTotal.toFixed(),
        maxTotal: m.maxTotal === null ? '0' : m.maxTotal.toFixed(),
        // the sim's config takes fees in percent, as the venue publishes them
        makerFee: m.makerFee.mul(HUNDRED).toFixed(),
        takerFee: m.takerFee.mul(HUNDRED).toFixed(),
        tradesEnabled: m.tradesEnabled,
      })),
      accounts: [
        { name: o.account, trade },
        { name: flowAccount, internal: true, trade: huge },
      ],
      flow: { account: flowAccount, stepMs: o.stepMs ?? 250, markets: {} },
      investments: { plans: [], recordsPerAccount: 0 },
    },
    'paper venue',
  );
}
