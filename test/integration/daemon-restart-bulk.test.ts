import { describe, it } from 'vitest';
import { daemonChildren } from '../helpers/daemon-child.js';
import { killAndRestart } from './restart-scenario.js';

const { dir, spawnDaemon } = daemonChildren('daemon-restart-bulk');

/**
 * The SIGKILL restart check with `executor.bulk: true`: the market maker's quotes go out as order/bulk requests, a fifth
 * of whose answers the sim drops after acting (every order of such a request is then unknown and reconciled by client
 * order id). The kill lands wherever it lands, bulk requests in flight included. Same checks, and the clean stop cancels
 * the lone strategy's market with one order/cancel/all.
 */
describe('daemon with bulk places killed with SIGKILL mid-run, then restarted', () => {
  it(
    'duplicates no order and loses none: every venue order is in the journal, one live order per quote slot',
    () => killAndRestart({ dir, spawnDaemon, bulk: true }),
    120_000,
  );
});
