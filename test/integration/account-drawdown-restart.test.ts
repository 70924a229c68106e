import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../src/engine/journal-records.js';
import { D } from '../../src/model/decimal.js';
import { DEFAULT_SIM_CONFIG_INPUT, parseSimConfig } from '../../src/sim/sim-config.js';
import type { AccessEntry } from '../../src/sim/http/server.js';
import { startSim } from '../../src/sim/start-sim.js';
import { daemonChildren, journalAt, restDaemonYaml, until } from '../helpers/daemon-child.js';

const { dir, spawnDaemon } = daemonChildren('account-drawdown');

/** The daemon's JSON log lines (stdout is not a terminal, so pino writes JSON). */
const logLines = (output: string): Record<string, unknown>[] =>
  output.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });

/** Records after the n-th `start` (1-based). */
const sinceStart = (records: readonly JournalRecord[], n: number): JournalRecord[] => {
  let seen = 0;
  const i = records.findIndex((r) => r.type === 'start' && ++seen === n);
  return i < 0 ? [] : records.slice(i);
};

/**
 * The check (#24 item 7): two market makers (BTC_USDT, ETH_USDT) under one `risk.account.maxDrawdown`, run as
 * child processes against a sim of this process whose book the test makes: no synthetic flow; the sim's internal
 * `market` account quotes one tick either side of a mid the test chooses (so the book's mid is exactly that, the
 * market makers' quotes resting 0.5 % out), and alice takes the market makers' quotes. Each move is made in one
 * synchronous step (the daemon never sees a book in between).
 */
describe('account drawdown across two strategies, with SIGKILLs', () => {
  it('both halt and every order is cancelled; the peak survives a SIGKILL and restart, and so does the halt', async () => {
    let onAnswer: ((e: AccessEntry) => void) | undefined;
    const sim = await startSim({ port: 0, config: parseSimConfig({ ...DEFAULT_SIM_CONFIG_INPUT, flow: undefined }), onRequest: (e) => onAnswer?.(e) });
    try {
      const ex = sim.exchange;
      const bob = sim.accounts.find((a) => !a.partner)!;
      const bobId = ex.accountByKey(bob.apiKey)!.id;
      const alice = ex.accountByName('alice')!.id;
      const maker = ex.accountByName('market')!.id;
      const tick = { BTC_USDT: D('0.01'), ETH_USDT: D('0.01') };
      type M = keyof typeof tick;
      const quoteAround = (market: M, mid: string) => {
        ex.cancelAll(maker, market);
        ex.placeLimit(maker, { market, side: 'buy', amount: D(5), price: D(mid).minus(tick[market]) });
        ex.placeLimit(maker, { market, side: 'sell', amount: D(5), price: D(mid).plus(tick[market]) });
      };
      const mmOrder = (market: M, side: 'buy' | 'sell') => ex.openOrders(bobId, { market }).find((o) => o.side === side);
      /**
       * Alice takes the market maker's bid (and its ask, for a round trip), then the book is quoted around `mid`. A move
       * of the book is made as a real one is, with a trade at the new level (alice and the market account): the daemon
       * believes a jump of its book only when the market trades there (engine/trade-evidence.ts).
       */
      const take = (market: M, mid: string, roundTrip: boolean) => {
        const bid = mmOrder(market, 'buy')!;
        const ask = mmOrder(market, 'sell')!;
        ex.cancelAll(maker, market);
        expect(ex.placeLimit(alice, { market, side: 'sell', amount: bid.left, price: bid.price, ioc: true }).ok).toBe(true);
        if (roundTrip) expect(ex.placeLimit(alice, { market, side: 'buy', amount: ask.left, price: ask.price, ioc: true }).ok).toBe(true);
        else {
          expect(ex.placeLimit(maker, { market, side: 'buy', amount: D('0.01'), price: D(mid) }).ok).toBe(true);
          expect(ex.placeLimit(alice, { market, side: 'sell', amount: D('0.01'), price: D(mid), ioc: true }).ok).toBe(true);
        }
        quoteAround(market, mid);
      };
      /**
       * Makes `move` right after the sim answered the daemon's deal poll and its open-orders poll. A fill the daemon
       * learns (from its deals, or from the order vanishing from the open-orders list) before it sees the book after the
       * move is valued at the book before it: a BTC long taken at 30000 and marked there is a peak of ~5.2, not the true
       * 4 (the flake of 6c844f0: with book polls every 200 ms and deal polls every 300 ms a deal poll came first about
       * one run in three). Both polls run every 500 ms, in step from the runtime's start; right after both, the next
       * is ~0.5 s away, and book polls come every 100 ms.
       */
      const afterDealsAndOrdersPolls = (move: () => void) =>
        new Promise<void>((resolve) => {
          const seen = new Set<string>();
          onAnswer = (e) => {
            if ((e.endpoint !== 'executedHistory' && e.endpoint !== 'orders') || e.client !== bob.apiKey) return;
            seen.add(e.endpoint);
            if (seen.size < 2) return;
            onAnswer = undefined;
            move();
            resolve();
          };
        });
      const quoting = () => mmOrder('BTC_USDT', 'buy') && mmOrder('BTC_USDT', 'sell') && mmOrder('ETH_USDT', 'buy') && mmOrder('ETH_USDT', 'sell');
      quoteAround('BTC_USDT', '30000');
      quoteAround('ETH_USDT', '2000');

      const journal = join(dir, 'journal.jsonl');
      const config = join(dir, 'daemon.yaml');
      writeFileSync(
        config,
        restDaemonYaml({
          baseUrl: sim.baseUrl,
          journal,
          strategies: [
            '  - { id: mm-btc, use: market-maker, market: BTC_USDT, params: { spread: 0.01, size: 0.01, inventorySkew: 0, maxInventory: 0.05 }, risk: { unlimited: true } }',
            '  - { id: mm-eth, use: market-maker, market: ETH_USDT, params: { spread: 0.01, size: 0.1, inventorySkew: 0, maxInventory: 0.5 }, risk: { unlimited: true } }',
          ],
          polling: '{ bookMs: 100, dealsMs: 500, openOrdersMs: 500, balancesMs: 1000 }',
          log: '{ level: info }',
          extra: ['risk: { account: { maxDrawdown: 60 } }', 'status: { everyMs: 60000 }'],
        }),
      );
      const env = { KEY: bob.apiKey, SECRET: bob.apiSecret };
      const fills = () => journalAt(journal).filter((r) => r.type === 'fill').length;
      const marks = () => journalAt(journal).flatMap((r) => (r.type === 'account-mark' ? [r] : []));
      /** Order books the sim served from `since` on (both markets are polled; the account check runs on each book). */
      const booksServed = (since: number) => sim.stats.arrivals.filter((a) => a.endpoint === 'orderbook' && a.at >= since).length;

      // run 1: a round trip on each market earns ~4 USDT (the peak), then BTC falls 30000 -> 25000 against a long
      // 0.01: a drawdown of ~48.8, under the limit of 60. Then the process is killed.
      const first = spawnDaemon(config, env);
      await until('both market makers quoting', () => Boolean(quoting()), 40_000, first.output);
      take('BTC_USDT', '30000', true);
      take('ETH_USDT', '2000', true);
      await until('the round trips journalled and the market makers quoting again', () => fills() === 4 && Boolean(quoting()), 20_000, first.output);
      await until('the peak journalled', () => marks().some((m) => D(m.peak).gt('3.4')), 10_000, first.output);
      await afterDealsAndOrdersPolls(() => take('BTC_USDT', '25000', false));
      await until('the BTC fill journalled', () => fills() === 5, 20_000, first.output);
      const filledAt = Date.now();
      await until('books at the new mid checked (two polls of each market)', () => booksServed(filledAt) >= 4, 20_000, first.output);
      expect(journalAt(journal).some((r) => r.type === 'account-halt')).toBe(false);
      first.child.kill('SIGKILL');
      await first.exited;
      const peak = marks().at(-1)!.peak;
      // journalled within 1 % of the limit (0.6) below the true peak: 2.4 + 1.6 after the round trips, or 5.2015 when the
      // BTC fill at 29,850 was learnt before the book at 25,000 (marked at the last sane mid, 30,000, for a moment)
      expect(D(peak).gt('3.4') && D(peak).lte('5.2015'), peak).toBe(true);

      // run 2: restores that peak; ETH falls 2000 -> 1750 against a long 0.1: the account is ~73 below the peak (the
      // strategies alone: ~48.8 and ~24.2), so both halt. Counted from a peak taken afresh at this start, it would not.
      const second = spawnDaemon(config, env);
      await until(
        'the peak restored',
        () => logLines(second.output()).some((l) => l.msg === 'account limits: peak and day start restored from the journal'),
        40_000,
        second.output,
      );
      expect(logLines(second.output()).find((l) => l.msg === 'account limits: peak and day start restored from the journal')).toMatchObject({ peak });
      await until('the ETH market maker quoting', () => Boolean(quoting()), 20_000, second.output);
      take('ETH_USDT', '1750', false);
      await until('the account halt', () => sinceStart(journalAt(journal), 2).some((r) => r.type === 'account-halt'), 20_000, second.output);
      const run2 = sinceStart(journalAt(journal), 2);
      const haltAt = run2.findIndex((r) => r.type === 'account-halt');
      expect(run2[haltAt]).toMatchObject({ type: 'account-halt', limit: 'max-drawdown', peak });
      expect(
        run2
          .slice(haltAt + 1)
          .flatMap((r) => (r.type === 'halt' ? [r.strategyId] : []))
          .sort(),
      ).toEqual(['mm-btc', 'mm-eth']);
      await until('no open order of the account', () => ex.openOrders(bobId).length === 0, 15_000, second.output);
      second.child.kill('SIGKILL');
      await second.exited;

      // run 3: the journal says halted: every strategy starts paused, nothing is placed, until an operator resumes
      const third = spawnDaemon(config, env);
      await until(
        'the restored halt',
        () => logLines(third.output()).some((l) => l.level === 40 && String(l.msg).startsWith('account halted in an earlier run')),
        40_000,
        third.output,
      );
      expect(logLines(third.output()).find((l) => String(l.msg).startsWith('account halted in an earlier run'))).toMatchObject({ limit: 'max-drawdown', peak });
      const restoredAt = Date.now();
      await until('some book polls (three of each market)', () => booksServed(restoredAt) >= 6, 20_000, third.output);
      expect(sinceStart(journalAt(journal), 3).filter((r) => r.type === 'submit')).toEqual([]);
      expect(ex.openOrders(bobId)).toHaveLength(0);
      third.child.kill('SIGTERM');
      expect(await third.exited).toBe(0);
      expect(third.output()).toMatch(/account \(USDT\): equity -?[\d.]+, peak [\d.]+, HALTED by max-drawdown/);
    } finally {
      await sim.close();
    }
  }, 150_000);
});
