// Entry of a lane's worker thread (run-parallel.ts). Plain JS so a worker can load it with no build: it imports the
// task from the compiled build when it runs there, else the TypeScript through tsx; the task runs one lane and posts it back.
import { importBeside } from '../../src/loading/import-beside.mjs';

await importBeside(import.meta.url, 'lane-worker-task');
