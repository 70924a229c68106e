import type { FixedPlan, Investment } from '../model/investment.js';
import { fmt } from '../model/decimal.js';
import type { WireFixedPlan, WireInvestment } from '../venue/wire.js';
import { createPrng, type Prng } from './prng.js';
import type { SimConfig } from './sim-config.js';

export type { FixedPlan, Investment } from '../model/investment.js';

export interface InvestmentFilters {
  readonly id?: string;
  readonly ticker?: string;
  readonly status?: 1 | 2;
  /** 1-100. */
  readonly limit: number;
  /** 0-10000. */
  readonly offset: number;
}

export const INVESTMENT_MESSAGES = {
  id: 'The id must be a string.',
  ticker: 'The ticker must be a string.',
  /** A ticker the exchange does not know: an invalid filter value, 400 like the others. */
  unknownTicker: 'The selected ticker is invalid.',
  status: 'The selected status is invalid.',
  limit: 'The limit must be an integer between 1 and 100.',
  offset: 'The offset must be an integer between 0 and 10000.',
} as const;

/**
 * Request validation of the investments filters (HTTP 400, code 0, `Validation failed`): errors
 * keyed id / ticker / status / limit / offset; `{}` when valid. With `knownTickers`, a ticker the
 * exchange does not know is an invalid filter value too (the venue answers an invalid filter with 400). Pure.
 */
export function validateInvestmentFilters(body: Readonly<Record<string, unknown>>, knownTickers?: ReadonlySet<string>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const { id, ticker, status, limit, offset } = body;
  if (id !== undefined && (typeof id !== 'string' || id === '')) errors.id = [INVESTMENT_MESSAGES.id];
  if (ticker !== undefined && (typeof ticker !== 'string' || ticker === '')) errors.ticker = [INVESTMENT_MESSAGES.ticker];
  else if (typeof ticker === 'string' && knownTickers !== undefined && !knownTickers.has(ticker)) errors.ticker = [INVESTMENT_MESSAGES.unknownTicker];
  if (status !== undefined && status !== 1 && status !== 2) errors.status = [INVESTMENT_MESSAGES.status];
  if (limit !== undefined && !(Number.isInteger(limit) && (limit as number) >= 1 && (limit as number) <= 100)) errors.limit = [INVESTMENT_MESSAGES.limit];
  if (offset !== undefined && !(Number.isInteger(offset) && (offset as number) >= 0 && (offset as number) <= 10_000))
    errors.offset = [INVESTMENT_MESSAGES.offset];
  return errors;
}

/** Defaults of the contract: limit 100, offset 0. Call after validateInvestmentFilters found nothing. */
export function toInvestmentFilters(body: Readonly<Record<string, unknown>>): InvestmentFilters {
  return {
    ...(typeof body.id === 'string' ? { id: body.id } : {}),
    ...(typeof body.ticker === 'string' ? { ticker: body.ticker } : {}),
    ...(body.status === 1 || body.status === 2 ? { status: body.status } : {}),
    limit: typeof body.limit === 'number' ? body.limit : 100,
    offset: typeof body.offset === 'number' ? body.offset : 0,
  };
}

function uuidFrom(prng: Prng): string {
  const hex = Array.from({ length: 32 }, () => prng.int(16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Seeded plans and per-account investment records (deterministic from `investments.seed`, the
 * account order and the start time), newest first.
 */
export class InvestmentBook {
  readonly plans: readonly FixedPlan[];
  private readonly records = new Map<string, Investment[]>();

  constructor(config: SimConfig['investments'], accountIds: readonly string[], startSec: number) {
    const prng = createPrng(config.seed);
    this.plans = config.plans.map((p) => ({ ...p, id: uuidFrom(prng) }));
    for (const accountId of accountIds) {
      const list: Investment[] = [];
      for (let i = 0; i < config.recordsPerAccount && this.plans.length > 0; i++) {
        const plan = this.plans[prng.int(this.plans.length)]!;
        const created = startSec - 86_400 * (1 + prng.int(90)) - prng.int(86_400);
        const end = created + plan.duration * 60;
        const closed = end <= startSec;
        // Amount on the plan's grid of 0.01 of its minimum, between min and max.
        const span = plan.maxInvestment.sub(plan.minInvestment);
        const amount = plan.minInvestment.add(span.mul(prng.int(101)).div(100)).toDecimalPlaces(8);
        const elapsedShare = Math.min(1, (startSec - created) / (plan.duration * 60));
        const interest = amount
          .mul(plan.percent)
          .div(100)
          .mul(Math.floor(elapsedShare * 100))
          .div(100)
          .toDecimalPlaces(8);
        list.push({
          id: uuidFrom(prng),
          plan,
          status: closed ? 2 : 1,
          created,
          updated: closed ? end : startSec - prng.int(3600),
          paymentTime: end,
          amount,
          interestPaid: interest,
        });
      }
      list.sort((a, b) => b.created - a.created);
      this.records.set(accountId, list);
    }
  }

  query(accountId: string, f: InvestmentFilters): Investment[] {
    const all = this.records.get(accountId) ?? [];
    return all
      .filter(
        (r) =>
          (f.id === undefined || r.id === f.id) && (f.ticker === undefined || r.plan.ticker === f.ticker) && (f.status === undefined || r.status === f.status),
      )
      .slice(f.offset, f.offset + f.limit);
  }
}

export function toWirePlan(p: FixedPlan): WireFixedPlan {
  return {
    id: p.id,
    ticker: p.ticker,
    status: p.status,
    percent: fmt(p.percent),
    duration: p.duration,
    interestTicker: p.interestTicker,
    interestRatio: fmt(p.interestRatio),
    minInvestment: fmt(p.minInvestment),
    maxInvestment: fmt(p.maxInvestment),
    maxPossibleInvestment: fmt(p.maxPossibleInvestment),
  };
}

export function toWireInvestment(r: Investment): WireInvestment {
  return {
    id: r.id,
    plan: toWirePlan(r.plan),
    status: r.status,
    created: r.created,
    updated: r.updated,
    paymentTime: r.paymentTime,
    amount: fmt(r.amount),
    interestPaid: fmt(r.interestPaid),
  };
}
