import type { AddressInfo } from 'node:net';
import type { Dialect, RateBucket, RateLimit } from '../venue/wire.js';
import { SimExchange } from './exchange.js';
import { createSimServer, type AccessEntry } from './http/server.js';
import type { FaultConfig, FaultInjector } from './http/faults.js';
import type { SimStats } from './http/sim-stats.js';
import type { VenueLies } from './http/venue-lies.js';
import type { MarketFlow } from './market-flow.js';
import { createSyntheticFlow } from './synthetic-flow.js';
import { DEFAULT_SIM_CONFIG, type SimConfig } from './sim-config.js';

/**
 * Starts the simulated exchange: the in-process core behind the v4 HTTP front on a loopback port,
 * with the background market flow and the housekeeping tick on unref'd timers (a test or `bot sim`
 * decides the process lifetime, not the sim). Everybody's integration tests go through this.
 */
export interface StartSimOptions {
  /** Markets, accounts, flow, investments. Default DEFAULT_SIM_CONFIG (config/sim.yaml spells it out). */
  readonly config?: SimConfig | undefined;
  /** 0 (default) = a free port. */
  readonly port?: number | undefined;
  /** Default 127.0.0.1: the sim never listens beyond loopback unless asked. */
  readonly host?: string | undefined;
  /** Answer spelling; default `contract`. */
  readonly dialect?: Dialect | undefined;
  /** Run the background market (default true when the config has a `flow`). */
  readonly flow?: boolean | undefined;
  /**
   * Replaces the synthetic flow (e.g. a recorded-book replay), or a factory given the exchange;
   * stepped at `config.flow.stepMs` (default 250 ms) with real time.
   */
  readonly marketFlow?: (MarketFlow | ((exchange: SimExchange) => MarketFlow)) | undefined;
  /** Fault injection, off by default; its `lies` make the venue answer wrongly in well-formed JSON. */
  readonly faults?: FaultConfig | undefined;
  /** Overrides of the venue's rate-limit table (tests that must reach a limit cheaply). */
  readonly rateLimits?: Partial<Record<RateBucket, Partial<RateLimit>>> | undefined;
  /** Access log hook (see SimServerOptions.onRequest); none by default. */
  readonly onRequest?: ((entry: AccessEntry) => void) | undefined;
  /** Period of the housekeeping tick (kill switches, stop activations); default 50 ms. */
  readonly tickMs?: number | undefined;
}

export interface SimAccountInfo {
  readonly name: string;
  readonly apiKey: string;
  /** Never log it. */
  readonly apiSecret: string;
  readonly partner: boolean;
}

export interface SimHandle {
  /** e.g. `http://127.0.0.1:40123` (no trailing slash). */
  readonly baseUrl: string;
  readonly port: number;
  /** Client accounts (internal flow accounts are not listed). */
  readonly accounts: readonly SimAccountInfo[];
  readonly exchange: SimExchange;
  readonly stats: SimStats;
  /** Fault injection (inert without `faults`); `faults.setEnabled(false)` stops it. */
  readonly faults: FaultInjector;
  /**
   * The lying venue (inert unless `faults.lies` is given or a test drives it): `lies.startEpisode('absurdBook',
   * { forMs, market })`, `lies.hideOrder(account, { clientOrderId }, forMs)`, `lies.setEnabled(false)` tells the truth again.
   */
  readonly lies: VenueLies;
  readonly dialect: Dialect;
  /** Stops the timers and the server (open keep-alive connections included). Idempotent. */
  close(): Promise<void>;
}

export async function startSim(options: StartSimOptions = {}): Promise<SimHandle> {
  const config = options.config ?? DEFAULT_SIM_CONFIG;
  const dialect = options.dialect ?? 'contract';
  const exchange = new SimExchange(config, () => Date.now());
  const { server, stats, faults, lies } = createSimServer({
    exchange,
    dialect,
    faults: options.faults,
    rateLimits: options.rateLimits,
    onRequest: options.onRequest,
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, fn: () => void): void => {
    const t = setInterval(() => {
      try {
        fn();
      } catch (error) {
        process.stderr.write(`sim: background step failed: ${(error as Error)?.stack ?? String(error)}\n`);
      }
    }, ms);
    t.unref();
    timers.push(t);
  };
  every(options.tickMs ?? 50, () => exchange.tick(Date.now()));
  const flow = options.flow === false ? undefined : chooseFlow(options.marketFlow, exchange);
  if (flow !== undefined) every(config.flow?.stepMs ?? 250, () => flow.step(exchange, Date.now()));

  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    accounts: exchange.accounts.filter((a) => !a.internal).map((a) => ({ name: a.name, apiKey: a.apiKey, apiSecret: a.apiSecret, partner: a.partner })),
    exchange,
    stats,
    faults,
    lies,
    dialect,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const t of timers) clearInterval(t);
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** The given flow, else the synthetic one when the config describes it (it applies `speed` itself). */
function chooseFlow(given: StartSimOptions['marketFlow'], exchange: SimExchange): MarketFlow | undefined {
  if (typeof given === 'function') return given(exchange);
  if (given !== undefined) return given;
  return exchange.config.flow === undefined ? undefined : createSyntheticFlow(exchange);
}
