import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import type { SimHandle } from '../../src/sim/start-sim.js';
import { publicGet, signedPost } from '../helpers/sim-request.js';
import { waitUntil } from '../helpers/wait-until.js';
import { simAccount, simAccountId, useSim } from '../helpers/with-sim.js';

/**
 * The lying venue (issue 23 item 7) over real HTTP, read on the wire: the exchange acts truthfully (its in-process
 * records stay the truth) while its answers lie, each kind driven deterministically from the test.
 */
const sim = useSim({ flow: false });
type Rec = Record<string, unknown>;

async function setup(options: Parameters<typeof sim>[0] = {}): Promise<{ s: SimHandle; bob: ReturnType<typeof simAccount>; id: string }> {
  const s = await sim(options);
  return { s, bob: simAccount(s, false), id: simAccountId(s, false) };
}

const place = (s: SimHandle, bob: ReturnType<typeof simAccount>, cid: string, fields: Rec = {}) =>
  signedPost(s.baseUrl, '/api/v4/order/new', bob, { market: 'BTC_USDT', side: 'buy', amount: '0.002', price: '20000', client_order_id: cid, ...fields });
const openList = async (s: SimHandle, bob: ReturnType<typeof simAccount>, fields: Rec = {}) =>
  (await signedPost(s.baseUrl, '/api/v4/orders', bob, { market: 'BTC_USDT', ...fields })).json as Rec[];
const dealsOf = async (s: SimHandle, bob: ReturnType<typeof simAccount>, fields: Rec = {}) =>
  (await signedPost(s.baseUrl, '/api/v4/trade-account/executed-history', bob, { market: 'BTC_USDT', ...fields })).json as Rec[];

/** Bob's buy of 0.002 at 20000 resting, then hit by the flow account in process: one deal of bob's. */
async function dealFor(s: SimHandle, bob: ReturnType<typeof simAccount>, cid: string): Promise<void> {
  expect((await place(s, bob, cid)).status).toBe(200);
  expect(s.exchange.placeLimit('market', { market: 'BTC_USDT', side: 'sell', amount: D('0.002'), price: D('20000') }).ok).toBe(true);
}

/** A book of three levels a side around 30000, posted by the flow account. */
function seedBook(s: SimHandle, mid = 30_000): void {
  for (let i = 1; i <= 3; i++) {
    s.exchange.placeLimit('market', { market: 'BTC_USDT', side: 'buy', amount: D('0.1'), price: D(mid - 10 * i) });
    s.exchange.placeLimit('market', { market: 'BTC_USDT', side: 'sell', amount: D('0.1'), price: D(mid + 10 * i) });
  }
}
const bookAt = async (s: SimHandle, limit: number) => publicGet(s.baseUrl, `/api/v4/public/orderbook/BTC_USDT?limit=${limit}`);
const top = (b: Rec) => ({ bid: Number((b['bids'] as string[][])[0]![0]), ask: Number((b['asks'] as string[][])[0]![0]) });

describe('lying venue: open orders', () => {
  it('a hidden order is left out of the list and the look-ups, yet rests and cancels', async () => {
    const { s, bob, id } = await setup();
    expect((await place(s, bob, 'seen-1')).status).toBe(200);
    expect((await place(s, bob, 'hid-1')).status).toBe(200);
    s.lies.hideOrder(id, { clientOrderId: 'hid-1' }, 60_000);
    expect((await openList(s, bob)).map((o) => o['client_order_id'])).toEqual(['seen-1']);
    expect(await openList(s, bob, { clientOrderId: 'hid-1' })).toEqual([]);
    const orderId = s.exchange.openOrders(id).find((o) => o.clientOrderId === 'hid-1')!.orderId;
    expect(await openList(s, bob, { orderId })).toEqual([]);
    expect(
      s.exchange
        .openOrders(id)
        .map((o) => o.clientOrderId)
        .sort(),
    ).toEqual(['hid-1', 'seen-1']);
    expect(s.stats.faults.get('orders:lie:hiddenOpenOrders')).toBe(3);
    const cancel = await signedPost(s.baseUrl, '/api/v4/order/cancel', bob, { market: 'BTC_USDT', clientOrderId: 'hid-1' });
    expect([cancel.status, (cancel.json as Rec)['client_order_id']]).toEqual([200, 'hid-1']);
    expect(s.exchange.finishedOrders(id).map((o) => [o.clientOrderId, o.status])).toEqual([['hid-1', 'CANCELED']]);
  });

  it('an episode hides every open order in its scope, new ones included, and paging stays full', async () => {
    const { s, bob, id } = await setup();
    for (let i = 0; i < 3; i++) await place(s, bob, `old-${i}`);
    s.lies.startEpisode('hiddenOpenOrders', { forMs: 60_000, market: 'BTC_USDT', account: id });
    await place(s, bob, 'new-0');
    expect(await openList(s, bob)).toEqual([]);
    await place(s, bob, 'eth-0', { market: 'ETH_USDT', price: '1000', amount: '0.01' });
    expect((await openList(s, bob, { market: 'ETH_USDT' })).map((o) => o['client_order_id'])).toEqual(['eth-0']);
    s.lies.endEpisodes('hiddenOpenOrders');
    expect((await openList(s, bob, { limit: 2, offset: 1 })).map((o) => o['client_order_id'])).toEqual(['old-2', 'old-1']);
    expect(s.lies.told.get('hiddenOpenOrders')).toBe(4);
  });

  it('from the config: each accepted order is hidden with its probability, for forMs', async () => {
    const { s, bob } = await setup({ faults: { lies: { hiddenOpenOrders: { probability: 1, forMs: 300 } } } });
    await place(s, bob, 'lag-1');
    expect(await openList(s, bob)).toEqual([]);
    await waitUntil('the order listed again', async () => (await openList(s, bob)).length > 0, { everyMs: 25 });
    expect((await openList(s, bob)).map((o) => o['client_order_id'])).toEqual(['lag-1']);
  });
});

describe('lying venue: deals', () => {
  it('a duplicate under a new, unused id with the same figures, beside its original; the ledger has one deal', async () => {
    const { s, bob, id } = await setup();
    await dealFor(s, bob, 'before');
    s.lies.startEpisode('duplicateDeals', { forMs: 60_000, account: id });
    await dealFor(s, bob, 'dup');
    const deals = await dealsOf(s, bob);
    const truth = s.exchange.deals(id);
    expect(truth).toHaveLength(2);
    expect(deals).toHaveLength(4); // the deal before the episode was first served in it too: both duplicated
    const [copy, original] = [deals[0]!, deals[1]!];
    expect(original['id']).toBe(truth[0]!.id);
    expect(copy['id']).not.toBe(original['id']);
    expect(truth.some((d) => d.id === copy['id'])).toBe(false);
    const { id: _a, ...copyFigures } = copy;
    const { id: _b, ...originalFigures } = original;
    expect(copyFigures).toEqual(originalFigures);
    // the page after the first holds the rest of the same lying list
    expect(await dealsOf(s, bob, { limit: 1, offset: 1 })).toEqual([original]);
    expect(s.stats.faults.get('executedHistory:lie:duplicateDeals')).toBe(2);
  });

  it.each(['negative-amount', 'zero-price', 'negative-price', 'negative-fee'] as const)(
    'corrupt (%s): first under the true id, the true record once the episode is over',
    async (how) => {
      const { s, bob, id } = await setup();
      const episode = s.lies.startEpisode('corruptDeals', { forMs: 60_000, account: id, variants: [how] });
      await dealFor(s, bob, 'c-1');
      const truth = s.exchange.deals(id)[0]!;
      const [lie] = await dealsOf(s, bob);
      expect(lie!['id']).toBe(truth.id);
      const field = { 'negative-amount': 'amount', 'zero-price': 'price', 'negative-price': 'price', 'negative-fee': 'fee' }[how];
      expect(D(lie![field] as string).lte(0)).toBe(true);
      expect(episode.endMs).toBeGreaterThan(Date.now());
      s.lies.endEpisodes();
      const [after] = await dealsOf(s, bob);
      expect([after!['id'], after!['amount'], after!['price'], after!['fee']]).toEqual([
        truth.id,
        truth.amount.toFixed(),
        truth.price.toFixed(),
        truth.fee.toFixed(),
      ]);
    },
  );

  it('from the config: corrupted for forMs after it is first reported', async () => {
    const { s, bob } = await setup({ faults: { lies: { corruptDeals: { probability: 1, forMs: 300, variants: ['negative-amount'] } } } });
    await dealFor(s, bob, 'c-2');
    expect((await dealsOf(s, bob))[0]!['amount']).toBe('-0.002');
    await waitUntil('the true record', async () => (await dealsOf(s, bob))[0]!['amount'] !== '-0.002', { everyMs: 25 });
    expect((await dealsOf(s, bob))[0]!['amount']).toBe('0.002');
  });
});

describe('lying venue: answers contradicting the request', () => {
  it.each([
    ['market', 'market', 'ETH_USDT'],
    ['amount', 'amount', '0.02'],
    ['price', 'price', '1'],
    ['side', 'side', 'sell'],
    ['client-order-id', 'client_order_id', 'k-1x'],
  ] as const)('order/new answers with another %s; the venue acted on the request', async (variant, field, lie) => {
    const { s, bob, id } = await setup();
    s.lies.startEpisode('contradictingAnswers', { forMs: 60_000, variants: [variant] });
    const r = await place(s, bob, 'k-1');
    expect(r.status).toBe(200);
    expect((r.json as Rec)[field]).toBe(lie);
    const [acted] = s.exchange.openOrders(id);
    expect([acted!.market, acted!.side, acted!.amount.toFixed(), acted!.price.toFixed(), acted!.clientOrderId]).toEqual([
      'BTC_USDT',
      'buy',
      '0.002',
      '20000',
      'k-1',
    ]);
    expect(s.stats.faults.get(`orderNew:lie:contradictingAnswers:${variant}`)).toBe(1);
  });

  it('the amount lie keeps the record consistent in itself (left 0.02 for the 0.002 order), in the exchange dialect too', async () => {
    const { s, bob } = await setup({ dialect: 'exchange' });
    s.lies.startEpisode('contradictingAnswers', { forMs: 60_000, variants: ['amount'] });
    const r = (await place(s, bob, 'k-2')).json as Rec;
    expect([r['clientOrderId'], r['amount'], r['left'], r['dealStock']]).toEqual(['k-2', '0.02', '0.02', '0']);
  });

  it('order/bulk items and order/stop_limit answers lie too', async () => {
    const { s, bob } = await setup();
    s.lies.startEpisode('contradictingAnswers', { forMs: 60_000, variants: ['price'] });
    const bulk = await signedPost(s.baseUrl, '/api/v4/order/bulk', bob, {
      orders: [1, 2].map((i) => ({ market: 'BTC_USDT', side: 'buy', amount: '0.002', price: '20000', client_order_id: `b-${i}` })),
    });
    expect((bulk.json as Array<{ result: Rec }>).map((x) => x.result['price'])).toEqual(['1', '1']);
    const stop = await signedPost(s.baseUrl, '/api/v4/order/stop_limit', bob, {
      market: 'BTC_USDT',
      side: 'buy',
      amount: '0.002',
      price: '20000',
      activation_price: '40000',
      client_order_id: 'st-1',
    });
    expect((stop.json as Rec)['price']).toBe('1');
  });

  it.each([
    ['negative-left', 'left', '-0.002'],
    ['negative-price', 'price', '-20000'],
    ['left-above-amount', 'left', '0.004'],
  ] as const)('records in orders and order/cancel answers: %s', async (variant, field, lie) => {
    const { s, bob } = await setup();
    await place(s, bob, 'r-1');
    await place(s, bob, 'r-2');
    s.lies.startEpisode('contradictingAnswers', { forMs: 60_000, variants: [variant] });
    // a record lie leaves the creation answers alone
    expect(((await place(s, bob, 'r-3')).json as Rec)[field]).toBe(field === 'left' ? '0.002' : '20000');
    expect((await openList(s, bob)).map((o) => o[field])).toEqual([lie, lie, lie]);
    const cancel = await signedPost(s.baseUrl, '/api/v4/order/cancel', bob, { market: 'BTC_USDT', clientOrderId: 'r-1' });
    expect((cancel.json as Rec)[field]).toBe(lie);
  });
});

describe('lying venue: order books', () => {
  it.each([
    ['ask-under-bid', (b: { bid: number; ask: number }) => expect([b.bid, b.ask]).toEqual([29_990, 0.01])],
    ['times-10', (b: { bid: number; ask: number }) => expect([b.bid, b.ask]).toEqual([299_900, 300_100])],
    ['huge', (b: { bid: number; ask: number }) => expect([b.bid, b.ask]).toEqual([2.999e29, 3.001e29])],
  ] as const)('absurd (%s), then the real book once the episode is over', async (variant, check) => {
    const { s } = await setup();
    seedBook(s);
    s.lies.startEpisode('absurdBook', { forMs: 60_000, market: 'BTC_USDT', variants: [variant] });
    const lie = await bookAt(s, 10);
    check(top(lie.json as Rec));
    expect((lie.json as Rec)['ticker_id']).toBe('BTC_USDT');
    expect(s.stats.faults.get(`orderbook:lie:absurdBook:${variant}`)).toBe(1);
    s.lies.endEpisodes();
    expect(top((await bookAt(s, 11)).json as Rec)).toEqual({ bid: 29_990, ask: 30_010 });
  });

  it('crossed: the best bid above the best ask by crossBy of the mid, on the price grid', async () => {
    const { s } = await setup();
    seedBook(s);
    s.lies.startEpisode('crossedBook', { forMs: 60_000, market: 'BTC_USDT', crossBy: 0.01 });
    const b = top((await bookAt(s, 10)).json as Rec);
    expect(b).toEqual({ bid: 30_310, ask: 30_010 });
    expect(s.exchange.topOfBook('BTC_USDT').bid?.toFixed()).toBe('29990');
  });

  it('frozen: the same snapshot, timestamp included, while the market moves', async () => {
    const { s } = await setup();
    seedBook(s);
    s.lies.startEpisode('frozenBook', { forMs: 60_000, market: 'BTC_USDT' });
    const first = await bookAt(s, 10);
    s.exchange.placeLimit('market', { market: 'BTC_USDT', side: 'buy', amount: D('0.1'), price: D('29995') });
    // past the 100 ms cache and into another second (the book's timestamp is in whole seconds)
    const frozenAt = Date.now();
    await waitUntil('the next second, 100 ms on', () => Date.now() - frozenAt > 100 && Math.floor(Date.now() / 1000) > Math.floor(frozenAt / 1000));
    expect((await bookAt(s, 10)).text).toBe(first.text);
    s.lies.endEpisodes();
    const after = (await bookAt(s, 11)).json as Rec;
    expect(top(after).bid).toBe(29_995);
    expect(after['timestamp']).not.toBe((first.json as Rec)['timestamp']);
  });

  it('outage: 503 with a non-JSON body for the episode, on that market only', async () => {
    const { s } = await setup();
    seedBook(s);
    s.lies.startEpisode('bookOutage', { forMs: 60_000, market: 'BTC_USDT' });
    const out = await bookAt(s, 10);
    expect([out.status, out.json]).toEqual([503, undefined]);
    expect((await publicGet(s.baseUrl, '/api/v4/public/orderbook/ETH_USDT')).status).toBe(200);
    s.lies.setEnabled(false);
    expect((await bookAt(s, 10)).status).toBe(200);
    expect(s.lies.episodes.map((e) => [e.kind, e.endMs <= Date.now()])).toEqual([['bookOutage', true]]);
  });

  it('from the config: episodes per minute and market, each forMs long, one book lie at a time', async () => {
    const { s } = await setup({ faults: { seed: 5, lies: { bookOutage: { perMinute: 600, forMs: 150 }, frozenBook: { perMinute: 600, forMs: 150 } } } });
    seedBook(s);
    const statuses: number[] = [];
    // sampled until both answers and more than one episode were seen (30 samples 20 ms apart used to do)
    await waitUntil(
      'an outage, a good answer and a second episode',
      async () => {
        statuses.push((await bookAt(s, 1 + (statuses.length % 100))).status);
        return statuses.includes(503) && statuses.includes(200) && s.lies.episodes.length > 1;
      },
      { everyMs: 20 },
    );
    expect(statuses).toContain(503);
    expect(statuses).toContain(200);
    const episodes = s.lies.episodes;
    expect(episodes.length).toBeGreaterThan(1);
    for (let i = 1; i < episodes.length; i++) expect(episodes[i]!.startMs).toBeGreaterThanOrEqual(episodes[i - 1]!.endMs);
    expect(episodes.every((e) => e.market === 'BTC_USDT' && e.endMs - e.startMs === 150 && e.source === 'config')).toBe(true);
  });
});

describe('lying venue: off', () => {
  it('setEnabled(false) tells the truth again and forgets every decision', async () => {
    const { s, bob, id } = await setup({ faults: { lies: { duplicateDeals: { probability: 1 }, hiddenOpenOrders: { probability: 1, forMs: 60_000 } } } });
    await dealFor(s, bob, 'd-1');
    await place(s, bob, 'h-1');
    expect(await dealsOf(s, bob)).toHaveLength(2);
    expect(await openList(s, bob)).toEqual([]);
    s.lies.setEnabled(false);
    expect(await dealsOf(s, bob)).toHaveLength(1);
    expect((await openList(s, bob)).map((o) => o['client_order_id'])).toEqual(['h-1']);
    expect(s.lies.armed).toBe(false);
    expect(s.exchange.deals(id)).toHaveLength(1);
  });
});
