import { D, ZERO } from '../../src/model/decimal.js';
import { marketFixture, ownOrderFixture } from '../../src/strategy/testing.js';
import sg from '../../strategies/stop-guard/index.js';
import { planGuard } from '../../strategies/stop-guard/guard-plan.js';
const market = marketFixture({ minAmount: D('0.001'), minTotal: D('5.05') });
const params = sg.params.parse({ baseline: '9.5', trail: '0.01', limitOffset: '0.002', step: '0.002', settleMs: 2000 });
const live=[ownOrderFixture({clientOrderId:'p1', side:'sell', type:'stop limit', price:'29640.6', amount:'0.5', activationPrice: D('29700'), tag:'stop-guard'})];
console.log(planGuard({market, params, balances:{BTC:{available:D(10),freeze:ZERO}}, bestBid:D('30100'), bestAsk:D('30100.5'), live, canceling:new Set(), placing:false, now:3000, state:{anchor:D('30000')}}));
