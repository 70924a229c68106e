import { Session } from 'node:inspector/promises';
import { runBacktest } from './backtest/replay/run-backtest.js';
import { loadStrategy } from './src/strategy/load-strategy.js';
import { D } from './src/model/decimal.js';
const mm = await loadStrategy('market-maker');
const o = { files: ['/tmp/v4-trader-bench/backtest-86400-v1.jsonl.gz'], cache: { dir: '/tmp/v4-trader-bench/cache' }, to: 1_700_000_000_000 + 30_000_000, strategies: [{ id: 'mm', definition: mm, market: 'BTC_USDT', params: { spread: '0.0004', size: '0.01', levels: 1, maxInventory: '0.1', refreshThreshold: '0.0002' } }], balances: { BTC: D('10'), USDT: D('1000000') }, polling: { bookMs: 1000, bookLimit: 20, balancesMs: 5000, openOrdersMs: 5000, dealsMs: 1000 }, assumptions: ['pessimistic' as const] };
await runBacktest({ ...o, to: 1_700_000_000_000 + 5_000_000 });
const s = new Session(); s.connect();
await s.post('HeapProfiler.enable');
await s.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true } as never);
await runBacktest(o);
const { profile } = await s.post('HeapProfiler.stopSampling');
const self = new Map<string, number>();
let total = 0;
const walk = (n: any, stack: string[]) => {
  const f = n.callFrame; const name = `${f.functionName || '(anon)'} ${f.url.split('/').slice(-2).join('/')}`;
  const size = n.selfSize; total += size;
  const dec = f.url.includes('decimal.js');
  let key = name;
  if (dec) { const callers = [...stack].reverse().filter((x) => !x.includes('decimal.js') && !x.includes('model/decimal')); key = `${name} <- ${callers.slice(0, 2).join(' <- ')}`; }
  self.set(key, (self.get(key) ?? 0) + size);
  for (const c of n.children) walk(c, [...stack, name]);
};
walk(profile.head, []);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log((100 * v / total).toFixed(1).padStart(5), (v / 2 ** 20).toFixed(0).padStart(5), 'MB', k);
console.log('total', (total / 2 ** 20).toFixed(0), 'MB');
