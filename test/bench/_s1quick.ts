import { generate, runSim } from './matching.bench.js';
import { OrderBook as H, Side } from 'hft-limit-order-book';
const steps = generate(42);
function hft() { const b = new H(); for (const s of steps) { if (s.kind === 'cancel') b.cancel(String(s.target)); else b.limit({ id: String(s.index), side: s.side === 'buy' ? Side.BUY : Side.SELL, size: s.lots, price: s.ticks }); } }
const cpu = (f: () => void) => { const c = process.cpuUsage(); f(); const d = process.cpuUsage(c); return (d.user + d.system) / 1000; };
runSim(steps); hft();
let a = Infinity, b = Infinity;
for (let i = 0; i < 5; i++) { a = Math.min(a, cpu(() => runSim(steps))); b = Math.min(b, cpu(hft)); }
console.log('cpu: sim', Math.round(steps.length / a * 1000), 'hft', Math.round(steps.length / b * 1000), 'ratio', (b / a).toFixed(2));
