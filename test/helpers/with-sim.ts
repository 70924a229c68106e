import { afterEach } from 'vitest';
import { startSim, type SimHandle, type StartSimOptions } from '../../src/sim/start-sim.js';
import { RestClient } from '../../src/venue/rest-client.js';
import type { Dialect } from '../../src/venue/wire.js';

/**
 * Test helpers that give each test its own simulated exchange on 127.0.0.1, port 0, and close it
 * (got's with-server pattern).
 *
 *   await withSim({ dialect: 'exchange' }, async (sim) => { ... });   // closed when fn settles
 *
 *   const sim = useSim();               // in a describe: a fresh sim per test, closed in afterEach
 *   it('...', async () => { const s = await sim(); ... });
 */
export async function withSim<T>(fn: (sim: SimHandle) => Promise<T>): Promise<T>;
export async function withSim<T>(options: StartSimOptions, fn: (sim: SimHandle) => Promise<T>): Promise<T>;
export async function withSim<T>(a: StartSimOptions | ((sim: SimHandle) => Promise<T>), b?: (sim: SimHandle) => Promise<T>): Promise<T> {
  const [options, fn] = typeof a === 'function' ? [{}, a] : [a, b as (sim: SimHandle) => Promise<T>];
  const sim = await startSim({ port: 0, host: '127.0.0.1', ...options });
  try {
    return await fn(sim);
  } finally {
    await sim.close();
  }
}

/** Registers an afterEach that closes every sim the returned starter made during the test. */
export function useSim(defaults: StartSimOptions = {}): (options?: StartSimOptions) => Promise<SimHandle> {
  const open: SimHandle[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  return async (options = {}) => {
    const sim = await startSim({ port: 0, host: '127.0.0.1', ...defaults, ...options });
    open.push(sim);
    return sim;
  };
}

/** A client account of the sim: `partner: true` gives the business partner, `false` the other one. */
export function simAccount(sim: SimHandle, partner: boolean): SimHandle['accounts'][number] {
  const account = sim.accounts.find((a) => a.partner === partner);
  if (account === undefined) throw new Error(`the sim config has no ${partner ? 'partner' : 'non-partner'} client account`);
  return account;
}

/**
 * Registers an afterEach that closes every client the returned maker made during the test: a real RestClient
 * on a sim account (`partner` as in simAccount), speaking `dialect`.
 */
export function useSimClients(dialect: Dialect): (sim: SimHandle, partner: boolean) => RestClient {
  const open: RestClient[] = [];
  afterEach(() => {
    for (const c of open.splice(0)) c.close();
  });
  return (sim, partner) => {
    const acc = simAccount(sim, partner);
    const c = new RestClient({ baseUrl: sim.baseUrl, dialect, apiKey: acc.apiKey, apiSecret: acc.apiSecret });
    open.push(c);
    return c;
  };
}

/** The sim's internal account id behind a client account (for reading the sim's own records). */
export const simAccountId = (sim: SimHandle, partner: boolean): string => sim.exchange.accountByKey(simAccount(sim, partner).apiKey)!.id;
