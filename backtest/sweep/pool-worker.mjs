// Entry of a pool thread (piscina). Plain JS so a worker thread can load it with no build: it imports the trial
// runner from the compiled build when it runs there, else the TypeScript through tsx. One trial at a time per thread.
import { importBeside } from '../../src/loading/import-beside.mjs';

const { runTrialOutcome } = await importBeside(import.meta.url, 'trial-executor');

export default function run({ job, options }) {
  return runTrialOutcome(job, options);
}
