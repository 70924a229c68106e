import { D } from '../../src/model/decimal.js';
import { marketFixture } from '../../src/strategy/testing.js';
import sg from '../../strategies/stop-guard/index.js';
import { PaperLoop } from './paper-loop.js';
const market = marketFixture({ minAmount: D('0.001'), minTotal: D('5.05') });
const params = sg.params.parse({ baseline: '9.5', trail: '0.01', limitOffset: '0.002', step: '0.002', settleMs: 2000 });
const loop = new PaperLoop(sg, params, market, { stock: D('10') });
for (const bid of ['30000', '30010', '30100', '30200', '30200', '30400', '30400', '30400', '30100', '29900', '29900', '29900']) {
  loop.setBook(D(bid), D(bid).plus('0.5'));
  console.log(bid, loop.live().map(o=>`${o.clientOrderId}:${o.activationPrice}:${o.state}${o.cancelRequested?'X':''}`).join(' '), loop.fills, loop.badCancels);
}
