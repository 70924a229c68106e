import { describe, expect, it } from 'vitest';
import { DEAL_CORRUPTIONS } from '../../src/sim/http/lie-config.js';
import { D } from '../../src/model/decimal.js';
import type { JournalDeal } from '../../src/engine/journal-records.js';
import { lyingDaemons, marketMaker, type LyingDaemon } from '../helpers/lying-daemon.js';

/**
 * Issue 23, the deal cases, reproduced through the sim's lies against a real daemon (a market maker whose quotes the
 * test fills on purpose, one at a time): the same fill reported again under a new deal id, and a deal first reported
 * with a corrupted figure, then its true record under the same id. The venue's true deals (in-process) decide.
 */
const daemon = lyingDaemons('lying-deals');

/** Fills the daemon's best quote of `side` and waits until the venue's deal of it was served to the daemon at least once. */
async function fillQuote(run: LyingDaemon, side: 'buy' | 'sell'): Promise<number[]> {
  const order = run.hit('BTC_USDT', side);
  const ids = run.sim.exchange
    .deals(run.accountId)
    .filter((d) => d.clientOrderId === order.clientOrderId)
    .map((d) => d.id);
  const served = run.sim.stats.arrivals.filter((a) => a.endpoint === 'executedHistory').length;
  await run.waitFor(
    'the deals polled twice since the fill',
    () => run.sim.stats.arrivals.filter((a) => a.endpoint === 'executedHistory').length >= served + 2,
    5_000,
  );
  return ids;
}

const journalFills = (run: LyingDaemon): JournalDeal[] => run.records().flatMap((r) => (r.type === 'fill' ? [r.deal] : []));

describe('a venue that lies about deals (issue 23)', () => {
  it('the same fill reported again under a new deal id: no duplicate journalled, no overfill, the summary counts the true fills', async () => {
    const run = await daemon('duplicates', { strategies: marketMaker() });
    await run.waitFor('4 quotes resting', () => run.open('BTC_USDT').length === 4);
    run.sim.lies.startEpisode('duplicateDeals', { forMs: 60_000, account: run.accountId });
    for (const side of ['buy', 'sell', 'buy'] as const) await fillQuote(run, side);
    expect(run.sim.lies.told.get('duplicateDeals') ?? 0, 'the lie was told').toBeGreaterThanOrEqual(3);
    const summary = await run.stop(); // with the lie still on: the stop's last look at the deals meets it too
    const venueDeals = run.sim.exchange.deals(run.accountId);
    const venueIds = new Set(venueDeals.map((d) => d.id));
    expect(
      journalFills(run)
        .filter((d) => !venueIds.has(d.id))
        .map((d) => `${d.id} ${d.clientOrderId}`),
      'fills the venue never made',
    ).toEqual([]);
    expect(summary.strategies.reduce((n, s) => n + s.fills, 0)).toBe(venueDeals.length);
    const audit = run.audit();
    expect([...audit.overfills, ...audit.fillsMissing, ...audit.lost, ...audit.unknownLeft, ...audit.balanceDiff]).toEqual([]);
  }, 30_000);

  it.each(DEAL_CORRUPTIONS)(
    'a deal first reported with %s, then its true record under the same id: never the corrupt one journalled, always the true one',
    async (how) => {
      const run = await daemon(`corrupt-${how}`, { strategies: marketMaker() });
      await run.waitFor('4 quotes resting', () => run.open('BTC_USDT').length === 4);
      run.sim.lies.startEpisode('corruptDeals', { forMs: 60_000, account: run.accountId, variants: [how] });
      for (const side of ['buy', 'sell'] as const) await fillQuote(run, side);
      expect(run.sim.lies.told.get(`corruptDeals:${how}`) ?? 0, 'the lie was told').toBe(2);
      run.sim.lies.endEpisodes(); // the true records from now on
      await run.sleep(2_000);
      await run.stop();
      const bad = journalFills(run).filter((d) => !D(d.amount).gt(0) || !D(d.price).gt(0) || D(d.fee).isNegative());
      expect(
        bad.map((d) => `${d.id}: ${d.amount} @ ${d.price} fee ${d.fee}`),
        'corrupt fills journalled',
      ).toEqual([]);
      const journalled = new Map(journalFills(run).map((d) => [d.id, d]));
      for (const d of run.sim.exchange.deals(run.accountId)) {
        const j = journalled.get(d.id);
        expect(j && [j.amount, j.price, j.fee], `the true deal ${d.id}`).toEqual([d.amount.toFixed(), d.price.toFixed(), d.fee.toFixed()]);
      }
      const audit = run.audit();
      // the issue: orders journalled cancelled that the venue shows filled
      expect([...audit.phantomCancels, ...audit.overfills, ...audit.fillsMissing, ...audit.lost, ...audit.unknownLeft, ...audit.balanceDiff]).toEqual([]);
    },
    30_000,
  );
});
