// Entry of a pool thread (piscina). Plain JS so a worker thread can load it with no build: it registers tsx's
// loader in this thread, then imports the TypeScript trial runner. One trial at a time per thread.
import { register } from 'tsx/esm/api';

register();
const { runTrialOutcome } = await import('./trial-executor.ts');

export default function run({ job, options }) {
  return runTrialOutcome(job, options);
}
