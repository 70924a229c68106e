import { it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import { MemoryJournal } from '../../src/engine/journal.js';
import { exampleConfig, runAgainstSim, startFastSim } from './sim-run.js';
it('dbg', async () => {
  const sim = await startFastSim(5);
  const { account, strategies } = exampleConfig('stop-guard');
  const wide = strategies.map((s) => ({ ...s, params: { ...s.params, limitOffset: '0.01' } }));
  const journal = new MemoryJournal();
  const ex = sim.exchange;
  const seller = ex.accountByKey(sim.accounts.find((a) => a.name === 'alice')!.apiKey)!.id;
  const me = ex.accountByKey(sim.accounts.find((a) => a.name === account)!.apiKey)!.id;
  const crash = () => {
    const b = ex.book('BTC_USDT');
    console.log('bids', b.bids.slice(0, 30).map(l => `${l.price}x${l.amount}`).join(' '));
    console.log('mine', ex.openOrders(me, { market: 'BTC_USDT' }).map(o => `${o.type} ${o.side} ${o.activationPrice} ${o.price} ${o.amount}`));
    const bid = b.bids[0]!.price;
    const r = ex.placeLimit(seller, { market: 'BTC_USDT', side: 'sell', amount: D('5'), price: bid.times('0.995').toDecimalPlaces(2), ioc: true });
    console.log('crash', r.ok, r.ok ? `${r.order.dealStock} left ${r.order.left}` : r, 'last', String(ex.lastPrice('BTC_USDT')));
    setTimeout(() => console.log('after 200ms mine', ex.openOrders(me, { market: 'BTC_USDT' }).map(o => `${o.type} ${o.side} ${o.activationPrice} ${o.price} ${o.amount} ${o.left}`), 'last', String(ex.lastPrice('BTC_USDT'))), 200);
  };
  const run = await runAgainstSim({ sim, account, strategies: wide, journal, ms: 8_000, cancelOnStop: true, polling: { balancesMs: 500 }, midway: crash });
  console.log(journal.records().filter(r => r.type !== 'balance').map(r => JSON.stringify(r).slice(0, 200)).join('\n'));
  await sim.close();
});
