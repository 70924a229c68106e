// Entry of a lane's worker thread (run-parallel.ts). Plain JS so a worker can load it with no build: it registers
// tsx's loader in this thread, then imports the TypeScript task, which runs one lane and posts it back.
import { register } from 'tsx/esm/api';

register();
await import('./lane-worker-task.ts');
