import { runBacktest } from './backtest/replay/run-backtest.js';
import { loadStrategy } from './src/strategy/load-strategy.js';
import { D } from './src/model/decimal.js';
const mm = await loadStrategy('market-maker');
const o = { files: ['/tmp/v4-trader-bench/backtest-86400-v1.jsonl.gz'], cache: { dir: '/tmp/v4-trader-bench/cache' }, strategies: [{ id: 'mm', definition: mm, market: 'BTC_USDT', params: { spread: '0.0004', size: '0.01', levels: 1, maxInventory: '0.1', refreshThreshold: '0.0002' } }], balances: { BTC: D('10'), USDT: D('1000000') }, polling: { bookMs: 1000, bookLimit: 20, balancesMs: 5000, openOrdersMs: 5000, dealsMs: 1000 }, assumptions: ['pessimistic' as const] };
console.log('MARK start');
const t = performance.now();
await runBacktest(o);
console.log('MARK end', Math.round(performance.now() - t), 'ms');
