import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import { RequestValidationError } from '../../src/venue/errors.js';
import { RestClient } from '../../src/venue/rest-client.js';
import { InvalidRequestError } from '../../src/venue/serialize-request.js';
import type { Dialect } from '../../src/venue/wire.js';
import { signedPost } from '../helpers/sim-request.js';
import { simAccount, simAccountId, useSim, useSimClients } from '../helpers/with-sim.js';

/**
 * The kill-switch (order/kill-switch) and its status (order/kill-switch/status) through the real client against
 * the sim over loopback HTTP, in both dialects; the wire-level validation answers with raw signed requests
 * (the client refuses to send an invalid timeout at all).
 */
describe.each<Dialect>(['contract', 'exchange'])('kill-switch through the client against the sim, %s dialect', (dialect) => {
  const sim = useSim({ dialect, flow: false });
  const client = useSimClients(dialect);
  const idOf = simAccountId;
  const place = (c: RestClient, market: string, id: string, price = '1000') =>
    c.placeLimit({ market, side: 'buy', amount: D('0.01'), price: D(price), clientOrderId: id });

  it('sets a timer: times in seconds, cancellation = start + timeout, every type by default; status lists it', async () => {
    const s = await sim();
    const alice = client(s, true);
    const before = Math.floor(Date.now() / 1000);
    const timer = await alice.killSwitch('BTC_USDT', 30);
    expect(timer).not.toBeNull();
    expect(timer!.market).toBe('BTC_USDT');
    expect(timer!.startTime).toBeGreaterThanOrEqual(before);
    expect(timer!.startTime).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect(timer!.cancellationTime - timer!.startTime).toBe(30);
    expect(timer!.types).toEqual(['spot', 'margin', 'futures']);
    const spotOnly = await alice.killSwitch('ETH_USDT', 600, ['spot']);
    expect(spotOnly).toMatchObject({ market: 'ETH_USDT', types: ['spot'] });
    expect(spotOnly!.cancellationTime - spotOnly!.startTime).toBe(600);

    expect((await alice.killSwitchStatus()).map((t) => t.market)).toEqual(['BTC_USDT', 'ETH_USDT']);
    expect(await alice.killSwitchStatus('BTC_USDT')).toEqual([timer]);
    // timers are per account: bob has none
    expect(await client(s, false).killSwitchStatus()).toEqual([]);
    // a reset moves the cancellation time and keeps one timer per market
    const reset = await alice.killSwitch('BTC_USDT', 5);
    expect(reset!.cancellationTime - reset!.startTime).toBe(5);
    expect(await alice.killSwitchStatus('BTC_USDT')).toEqual([reset]);
  });

  it('refuses a timeout outside 5-600 s: the client before sending, the venue with 422 code 30 and errors.timeout', async () => {
    const s = await sim();
    const alice = client(s, true);
    for (const bad of [4, 601, 0, 5.5, -5]) await expect(alice.killSwitch('BTC_USDT', bad)).rejects.toBeInstanceOf(InvalidRequestError);
    expect(s.stats.arrivalTimes('killSwitch')).toEqual([]);

    const creds = simAccount(s, true);
    const cases: Array<[unknown, string]> = [
      ['4', 'Timeout should be at least 5.'],
      [4, 'Timeout should be at least 5.'],
      ['601', 'Timeout should be at most 600.'],
      ['5.5', 'Timeout should be an integer number of seconds.'],
      ['soon', 'Timeout should be an integer number of seconds.'],
      [true, 'Timeout should be an integer number of seconds.'],
    ];
    for (const [timeout, message] of cases) {
      const r = await signedPost(s.baseUrl, '/api/v4/order/kill-switch', creds, { market: 'BTC_USDT', timeout });
      expect(r.status, `timeout ${JSON.stringify(timeout)}`).toBe(422);
      expect(r.json).toEqual({ code: 30, message: 'Validation failed', errors: { timeout: [message] } });
    }
    const missing = await signedPost(s.baseUrl, '/api/v4/order/kill-switch', creds, {});
    expect(missing.json).toEqual({
      code: 30,
      message: 'Validation failed',
      errors: { market: ['Market field is required.'], timeout: ['Timeout field is required.'] },
    });
    const types = await signedPost(s.baseUrl, '/api/v4/order/kill-switch', creds, { market: 'BTC_USDT', timeout: '60', types: ['options'] });
    expect(types.status).toBe(422);
    expect(types.json).toMatchObject({ code: 30, errors: { types: [expect.stringContaining('spot, margin, futures')] } });
    // string and number timeouts are both taken
    expect((await signedPost(s.baseUrl, '/api/v4/order/kill-switch', creds, { market: 'BTC_USDT', timeout: 60 })).status).toBe(200);
    // nothing invalid set a timer of its own
    expect(s.exchange.killSwitchStatus(idOf(s, true)).map((t) => t.cancellationTime - t.startTime)).toEqual([60]);

    // an unknown market: code 31 through the client, for both endpoints
    for (const call of [() => alice.killSwitch('NOPE_USDT', 60), () => alice.killSwitchStatus('NOPE_USDT')]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).venueCode).toBe(31);
      expect((error as RequestValidationError).errors['market']).toEqual(['Market is not available.']);
    }
  });

  it('timeout null clears the timer: status is empty and the orders outlive the time it would have fired', async () => {
    const s = await sim();
    const alice = client(s, true);
    await place(alice, 'BTC_USDT', `keep-${dialect}`);
    await alice.killSwitch('BTC_USDT', 5);
    expect(await alice.killSwitch('BTC_USDT', null)).toBeNull();
    expect(await alice.killSwitchStatus()).toEqual([]);
    // clearing a market without a timer is fine too
    expect(await alice.killSwitch('ETH_USDT', null)).toBeNull();
    s.exchange.tick(Date.now() + 60_000);
    expect((await alice.openOrders()).map((o) => o.clientOrderId)).toEqual([`keep-${dialect}`]);
    expect(s.exchange.killSwitchFirings()).toEqual([]);
  });

  it("expiry cancels that account's orders on that market only, and the sim records the cancels as the kill-switch's", async () => {
    const s = await sim();
    const alice = client(s, true);
    const bob = client(s, false);
    await place(alice, 'BTC_USDT', 'a-btc-1');
    await place(alice, 'BTC_USDT', 'a-btc-2', '1001');
    await place(alice, 'ETH_USDT', 'a-eth-1');
    await place(bob, 'BTC_USDT', 'b-btc-1');
    await alice.placeStopLimit({
      market: 'BTC_USDT',
      side: 'sell',
      amount: D('0.01'),
      price: D('900'),
      activationPrice: D('950'),
      clientOrderId: 'a-btc-stop',
    });
    const timer = await alice.killSwitch('BTC_USDT', 5);
    await bob.killSwitch('ETH_USDT', 5);

    // not yet due: nothing happens
    s.exchange.tick(Date.now() + 3_000);
    expect((await alice.openOrders()).length).toBe(4);
    // due (the sim's clock, moved by hand here; the sim's own tick does the same on real time)
    const firedAt = timer!.cancellationTime * 1000 + 1_000;
    s.exchange.tick(firedAt);
    expect((await alice.openOrders()).map((o) => o.clientOrderId)).toEqual(['a-eth-1']);
    expect((await bob.openOrders()).map((o) => o.clientOrderId)).toEqual(['b-btc-1']);
    expect(await alice.killSwitchStatus()).toEqual([]);

    const firings = s.exchange.killSwitchFirings(idOf(s, true));
    expect(firings).toHaveLength(1);
    expect(firings[0]).toMatchObject({ market: 'BTC_USDT', firedMs: firedAt });
    expect(firings[0]!.cancelled.map((o) => o.clientOrderId).sort()).toEqual(['a-btc-1', 'a-btc-2', 'a-btc-stop']);
    expect(firings[0]!.cancelled.every((o) => o.status === 'CANCELED')).toBe(true);
    // bob's ETH timer fired too, on a market where he had nothing
    expect(s.exchange.killSwitchFirings(idOf(s, false))).toMatchObject([{ market: 'ETH_USDT', cancelled: [] }]);
    // a timer fires once
    s.exchange.tick(firedAt + 10_000);
    expect(s.exchange.killSwitchFirings()).toHaveLength(2);
  });

  it("a timer without 'spot' in its types leaves the sim's (spot) orders alone", async () => {
    const s = await sim();
    const alice = client(s, true);
    await place(alice, 'BTC_USDT', 'spot-1');
    await alice.killSwitch('BTC_USDT', 5, ['margin', 'futures']);
    s.exchange.tick(Date.now() + 10_000);
    expect((await alice.openOrders()).map((o) => o.clientOrderId)).toEqual(['spot-1']);
    expect(s.exchange.killSwitchFirings()).toMatchObject([{ market: 'BTC_USDT', cancelled: [] }]);
  });
});
