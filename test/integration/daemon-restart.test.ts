import { describe, it } from 'vitest';
import { daemonChildren } from '../helpers/daemon-child.js';
import { killAndRestart } from './restart-scenario.js';

const { dir, spawnDaemon } = daemonChildren('daemon-restart');

describe('daemon killed with SIGKILL mid-run, then restarted', () => {
  it(
    'duplicates no order and loses none: every venue order is in the journal, one live order per quote slot',
    () => killAndRestart({ dir, spawnDaemon, bulk: false }),
    120_000,
  );
});
